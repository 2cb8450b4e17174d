package io.weir.internal.json;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The one Jackson configuration of Weir's own JSON: the documents Weir writes and reads back
 * (savepoint manifests, control messages, the topology record) and those it shows (the HTTP
 * endpoints, the {@code weir} command's output). Users' values on topics are not Weir's own: the
 * JSON serde keeps a stricter mapper of its own ({@code Serdes.json}).
 *
 * <p>Jackson's defaults, except:
 * <ul>
 *   <li>unknown properties are ignored when reading, since a document written by a newer Weir
 *       (a manifest in a topic, a recorded topology) may have fields this version does not know;</li>
 *   <li>{@link #pretty} indents, for people (operators with curl, the command line): two spaces,
 *       {@code "name": value}, {@code []} and {@code {}} when empty. What Weir writes for itself
 *       ({@link #bytes}) is compact.</li>
 * </ul>
 *
 * <p>Thread-safe: the mapper is configured once here and never handed out, so no caller can
 * change it; readers and writers are immutable.
 */
public final class Json {

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    private static final ObjectWriter PRETTY = MAPPER.writer(new DefaultPrettyPrinter(Separators.createDefaultInstance()
            .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
            .withObjectEmptySeparator("")
            .withArrayEmptySeparator("")));

    private Json() {}

    /** Reads with this configuration: {@code reader().forType(X.class).readValue(...)}, {@code readTree}. */
    public static ObjectReader reader() {
        return MAPPER.reader();
    }

    /** An empty object to fill. */
    public static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    /** A value (a record, a map, a list) as a JSON tree. */
    public static <T extends JsonNode> T tree(Object value) {
        return MAPPER.valueToTree(value);
    }

    /** A value as compact JSON, UTF-8. */
    public static byte[] bytes(Object value) {
        try {
            return MAPPER.writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw cannotWrite(value, e);
        }
    }

    /** A value as indented JSON, for people. */
    public static String pretty(Object value) {
        try {
            return PRETTY.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw cannotWrite(value, e);
        }
    }

    /** {@link #pretty} as UTF-8. */
    public static byte[] prettyBytes(Object value) {
        try {
            return PRETTY.writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw cannotWrite(value, e);
        }
    }

    // Only Weir's own values are written here (records, trees, maps and lists of plain values): a
    // failure is a bug, not an input to handle.
    private static IllegalStateException cannotWrite(Object value, JsonProcessingException e) {
        String type = value == null ? "null" : value.getClass().getName();
        return new IllegalStateException("cannot write " + type + " as JSON: " + e.getOriginalMessage(), e);
    }
}
