package io.weir.benchmarks;

/** The windowed input of {@code window-count-10s} and what a correct windowed count makes of it. */
record WindowedInput(InputTopic topic, WindowModel model) {
}
