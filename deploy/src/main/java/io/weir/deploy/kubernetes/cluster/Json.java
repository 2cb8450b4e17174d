package io.weir.deploy.kubernetes.cluster;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The deploy module's one Jackson mapper, with Jackson's defaults: the runner's output lines
 * ({@link Events}), and what the scenario reads back (its results, the pods' answers).
 */
public final class Json {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private Json() {}

    /** {@code text} parsed as JSON. */
    public static com.fasterxml.jackson.databind.JsonNode tree(String text) throws JsonProcessingException {
        return MAPPER.readTree(text);
    }

    /** {@code value} as one line of JSON. */
    static String line(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write as JSON: " + value, e);
        }
    }
}
