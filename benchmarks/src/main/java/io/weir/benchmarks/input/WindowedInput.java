package io.weir.benchmarks.input;

/** The windowed input of {@code window-count-10s} and what a correct windowed count makes of it. */
public record WindowedInput(InputTopic topic, WindowModel model) {}
