/**
 * The window operators: time (tumbling, hopping), session and count windows, the panes they keep,
 * when they fire (at the watermark, early every N ms or N records, again for late records within
 * the grace period) and which closed sessions may never be extended. May use the aggregate and
 * table operators, time, the task and the stores below it.
 */
package io.weir.internal.operator.window;
