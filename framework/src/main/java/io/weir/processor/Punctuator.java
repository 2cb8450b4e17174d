package io.weir.processor;

/** Called by a schedule; {@code timestamp} is the wall-clock time in milliseconds. */
@FunctionalInterface
public interface Punctuator {

    void punctuate(long timestamp);
}
