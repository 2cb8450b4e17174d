/**
 * One active task: its nodes (sources, processors, sinks), input buffering and choice by time,
 * watermarks and punctuations, dead letters, late records, output limits, and the contracts DSL
 * processors implement ({@code CommitAwareProcessor}, {@code EventTimeProcessor}). May use the
 * rooms below it, down to the topology and the task stores.
 */
package io.weir.internal.task;
