package io.weir.benchmarks;

import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The benchmarks' one {@link ObjectMapper}, with Jackson's defaults: it writes the report's lines
 * ({@link JsonReport}) and reads what a Weir child answers on {@code /info} ({@link ChildCountRunner}).
 * Configured before any use and never changed after, so every thread may share it.
 */
final class BenchmarkJson {

    static final ObjectMapper MAPPER = new ObjectMapper();

    private BenchmarkJson() {
    }
}
