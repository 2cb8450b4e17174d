package io.weir.internal.savepoint;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.weir.internal.json.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * {@link ControlMessage}s as JSON: {@code {"type": "request", ...}} with the record's fields.
 * Unknown fields are ignored ({@link Json}) and an unknown type decodes to null, so a newer Weir
 * may add messages that an older instance skips.
 */
public final class ControlCodec {

    private ControlCodec() {}

    public static byte[] encode(ControlMessage m) {
        ObjectNode node = Json.tree(m);
        node.put("type", type(m));
        return Json.bytes(node);
    }

    /** The message, or null if the bytes are not a control message this version knows. */
    public static ControlMessage decode(byte[] bytes) {
        if (bytes == null) {
            return null;
        }
        try {
            JsonNode node = Json.reader().readTree(bytes);
            Class<? extends ControlMessage> type = switch (node.path("type").asText()) {
                case "request" -> ControlMessage.Request.class;
                case "paused" -> ControlMessage.Paused.class;
                case "done" -> ControlMessage.Done.class;
                case "aborted" -> ControlMessage.Aborted.class;
                case "completed" -> ControlMessage.Completed.class;
                default -> null;
            };
            if (type == null) {
                return null;
            }
            ((ObjectNode) node).remove("type");
            return Json.reader().treeToValue(node, type);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    static String type(ControlMessage m) {
        if (m instanceof ControlMessage.Request) {
            return "request";
        } else if (m instanceof ControlMessage.Paused) {
            return "paused";
        } else if (m instanceof ControlMessage.Done) {
            return "done";
        } else if (m instanceof ControlMessage.Aborted) {
            return "aborted";
        }
        return "completed";
    }

    /** For logs and errors: the message as one line of JSON. */
    static String toString(ControlMessage m) {
        return new String(encode(m), StandardCharsets.UTF_8);
    }
}
