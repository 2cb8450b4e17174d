/**
 * One active task: its nodes (sources, processors, sinks), input buffering and choice by time,
 * dead letters, late records, output limits, and the contract DSL processors implement
 * ({@code CommitAwareProcessor}). Its watermark and punctuations are in {@code io.weir.internal.time}.
 * May use the rooms below it, down to the topology and the task stores.
 */
package io.weir.internal.task;
