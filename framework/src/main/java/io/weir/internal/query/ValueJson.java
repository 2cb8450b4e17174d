package io.weir.internal.query;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.weir.internal.json.Json;
import io.weir.serde.Serde;
import java.io.IOException;
import java.util.Base64;

/**
 * Keys and values of a store as JSON in query answers: JSON values as they are, strings, numbers
 * and UUIDs as JSON strings and numbers, bytes as base64url strings; a value of another serde as
 * Jackson maps the deserialized object, or, if it cannot, as {@code {"base64": "..."}} of its bytes.
 */
public final class ValueJson {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private ValueJson() {}

    /** {@code value} (already deserialized by {@code serde}) as JSON; null as JSON null. */
    @SuppressWarnings("unchecked")
    public static JsonNode of(Serde<?> serde, Object value) {
        if (value == null) {
            return NODES.nullNode();
        }
        byte[] bytes = ((Serde<Object>) serde).serialize(null, value);
        return switch (serde.formatId()) {
            case "string", "uuid" -> NODES.textNode(value.toString());
            case "long" -> NODES.numberNode((Long) value);
            case "int" -> NODES.numberNode((Integer) value);
            case "double" -> NODES.numberNode((Double) value);
            case "bytes" -> base64(bytes);
            case "json" -> parsed(bytes, value);
            default -> mapped(value, bytes);
        };
    }

    private static JsonNode parsed(byte[] bytes, Object value) {
        try {
            return Json.reader().readTree(bytes);
        } catch (IOException e) {
            return mapped(value, bytes);
        }
    }

    private static JsonNode mapped(Object value, byte[] bytes) {
        try {
            return Json.tree(value);
        } catch (RuntimeException e) {
            return NODES.objectNode()
                    .put("base64", Base64.getUrlEncoder().withoutPadding().encodeToString(bytes));
        }
    }

    private static JsonNode base64(byte[] bytes) {
        return NODES.textNode(Base64.getUrlEncoder().withoutPadding().encodeToString(bytes));
    }
}
