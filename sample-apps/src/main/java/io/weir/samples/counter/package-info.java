/**
 * The keyed counter replayed after a crash: counts per key, exactly once across a kill and a
 * restart.
 */
package io.weir.samples.counter;
