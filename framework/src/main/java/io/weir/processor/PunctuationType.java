package io.weir.processor;

/**
 * Which clock drives a scheduled {@link Punctuator}.
 *
 * <ul>
 *   <li>{@link #EVENT_TIME}: fires when the task's watermark passes the scheduled time; it moves
 *       only as records arrive (or as idle partitions stop holding it back), so a replay fires the
 *       same punctuations at the same points of the input, and a stopped input fires none;</li>
 *   <li>{@link #WALL_CLOCK}: fires on the processing clock, input or not.</li>
 * </ul>
 */
public enum PunctuationType {
    EVENT_TIME,
    WALL_CLOCK
}
