/**
 * The inputs the benchmark writes: seeded records over a set of keys, changelogs, windowed inputs
 * with the model of what a windowed count makes of them, and steady live traffic.
 */
package io.weir.benchmarks.input;
