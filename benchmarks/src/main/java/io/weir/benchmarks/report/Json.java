package io.weir.benchmarks.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.weir.benchmarks.systems.ChildCountRunner;

/**
 * The benchmarks' one {@link ObjectMapper}, with Jackson's defaults: it writes the report's lines
 * ({@link JsonReport}) and reads what a Weir child answers on {@code /info} ({@link ChildCountRunner}).
 * Configured before any use and never changed after, so every thread may share it.
 */
public final class Json {

    public static final ObjectMapper MAPPER = new ObjectMapper();

    private Json() {}
}
