package io.weir.internal.time;

/**
 * A processor that acts when event time moves: windows that close, sessions that end. Called on
 * the task's thread each time the task's watermark advances, before the record that advanced it
 * is processed, parents before children. Internal: users schedule
 * {@link io.weir.processor.PunctuationType#EVENT_TIME} punctuations instead.
 */
public interface EventTimeProcessor {

    void onWatermark(long watermark);
}
