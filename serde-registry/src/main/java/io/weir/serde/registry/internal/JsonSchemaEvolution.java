package io.weir.serde.registry.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.weir.serde.FormatEvolution.Verdict;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * The main rules by which the registries judge a JSON Schema change {@code BACKWARD}-compatible,
 * for object schemas: a property the new schema requires must have been required by the old one;
 * a property in both keeps its type (an integer may become a number); a property may be added
 * only where the old schema admitted no others ({@code additionalProperties: false}), since
 * otherwise old records may hold any value under its name; a property the old schema had may be
 * dropped only while the new one admits additional properties. Nested objects and array
 * items are judged the same way. Combinators ({@code oneOf}, {@code $ref}, ...) are compared as
 * text: any change to them is refused, never wrongly accepted.
 */
final class JsonSchemaEvolution {

    private final List<String> problems = new ArrayList<>();

    private JsonSchemaEvolution() {}

    static Verdict judge(String written, String reading) {
        JsonNode before;
        JsonNode after;
        try {
            before = Json.MAPPER.readTree(written);
            after = Json.MAPPER.readTree(reading);
        } catch (JsonProcessingException e) {
            return Verdict.unreadable("a JSON schema does not parse: " + e.getOriginalMessage());
        }
        JsonSchemaEvolution e = new JsonSchemaEvolution();
        e.compare(before, after, "");
        return e.problems.isEmpty()
                ? Verdict.readable("JSON schema " + name(reading) + " accepts the old schema's records")
                : Verdict.unreadable(String.join("; ", e.problems));
    }

    static String name(String schema) {
        try {
            return Json.MAPPER.readTree(schema).path("title").asText("(untitled)");
        } catch (JsonProcessingException e) {
            return "(unparsable)";
        }
    }

    private void compare(JsonNode before, JsonNode after, String path) {
        for (String combinator : List.of("oneOf", "anyOf", "allOf", "not", "$ref", "enum", "const")) {
            if (!before.path(combinator).equals(after.path(combinator))) {
                problems.add(where(path) + ": " + combinator + " changed");
            }
        }
        String bt = before.path("type").asText("");
        String at = after.path("type").asText("");
        if (!bt.equals(at) && !(bt.equals("integer") && at.equals("number")) && !at.isEmpty()) {
            problems.add(where(path) + ": type " + (bt.isEmpty() ? "(any)" : bt) + " became " + at);
            return;
        }
        if ("object".equals(at) || after.has("properties")) {
            Set<String> oldRequired = names(before.path("required"));
            JsonNode oldProps = before.path("properties");
            JsonNode newProps = after.path("properties");
            for (String r : names(after.path("required"))) {
                if (!oldRequired.contains(r)) {
                    problems.add(where(path + "." + r) + ": required by the new schema, but old records may lack it");
                }
            }
            boolean wasOpen = !(before.path("additionalProperties").isBoolean()
                    && !before.path("additionalProperties").asBoolean());
            for (Iterator<String> it = newProps.fieldNames(); it.hasNext(); ) {
                String p = it.next();
                if (oldProps.has(p)) {
                    compare(oldProps.get(p), newProps.get(p), path + "." + p);
                } else if (wasOpen && !admitsAnything(newProps.get(p))) {
                    problems.add(where(path + "." + p) + ": added with a type while the old schema admitted any"
                            + " property (additionalProperties not false), so old records may hold another type there");
                }
            }
            boolean closed = after.path("additionalProperties").isBoolean()
                    && !after.path("additionalProperties").asBoolean();
            if (closed) {
                for (Iterator<String> it = oldProps.fieldNames(); it.hasNext(); ) {
                    String p = it.next();
                    if (!newProps.has(p)) {
                        problems.add(where(path + "." + p) + ": removed while additionalProperties is false,"
                                + " so old records holding it are refused");
                    }
                }
            }
        }
        if (after.has("items") && before.has("items")) {
            compare(before.get("items"), after.get("items"), path + "[]");
        }
    }

    private static boolean admitsAnything(JsonNode schema) {
        return (schema.isBoolean() && schema.asBoolean()) || (schema.isObject() && schema.isEmpty());
    }

    private static Set<String> names(JsonNode array) {
        Set<String> s = new HashSet<>();
        array.forEach(n -> s.add(n.asText()));
        return s;
    }

    private static String where(String path) {
        return path.isEmpty() ? "the schema" : "field " + path.substring(1);
    }
}
