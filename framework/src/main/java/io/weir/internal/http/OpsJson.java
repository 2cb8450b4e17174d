package io.weir.internal.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The one {@link ObjectMapper} of the ops endpoints. Thread-safe once configured, which it is here
 * before any use, so every handler thread shares it.
 */
final class OpsJson {

    static final ObjectMapper MAPPER = new ObjectMapper();

    /** Indented: the main readers are operators with curl; the bodies are small. */
    private static final ObjectWriter WRITER = MAPPER.writer(new DefaultPrettyPrinter(
            Separators.createDefaultInstance()
                    .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
                    .withObjectEmptySeparator("")
                    .withArrayEmptySeparator("")));

    private OpsJson() {
    }

    static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    static byte[] bytes(Object value) {
        try {
            return WRITER.writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            // Only trees and plain maps of strings, numbers and lists are written here.
            throw new IllegalStateException("cannot render JSON: " + e.getMessage(), e);
        }
    }

    static String string(Object value) {
        try {
            return WRITER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot render JSON: " + e.getMessage(), e);
        }
    }
}
