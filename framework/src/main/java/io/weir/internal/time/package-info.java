/**
 * Time: a task's watermark over its input partitions (out-of-orderness, idleness), the watermarks
 * that tasks announce to their readers through repartition topics and hear from their writers,
 * the punctuations (timers) of stream and event time, and the contract of processors that act
 * when event time moves ({@code EventTimeProcessor}). Below the task, which owns one of each.
 */
package io.weir.internal.time;
