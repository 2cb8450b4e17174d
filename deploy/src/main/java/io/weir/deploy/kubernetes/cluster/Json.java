package io.weir.deploy.kubernetes.cluster;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

/** The deploy module's one Jackson mapper, with Jackson's defaults: the runner's output lines ({@link Events}). */
final class Json {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private Json() {}

    /** {@code value} as one line of JSON. */
    static String line(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write as JSON: " + value, e);
        }
    }
}
