package io.weir.internal.savepoint;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.databind.JsonNode;
import io.weir.internal.json.Json;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * What a complete savepoint holds: written last, once every task's stores are in the savepoint
 * topic, so a savepoint without a manifest (its taking failed or was aborted) is never listed or
 * restored. Unknown fields are ignored ({@link Json}): a newer Weir may add some.
 *
 * @param id            the savepoint's id
 * @param applicationId the application it was taken of
 * @param createdAt     when the cut completed, epoch ms
 * @param stopped       whether the application stopped after it ({@code weir stop --savepoint})
 * @param weirVersion   the Weir version of the tool that wrote it
 * @param topology      the application's topology description when recorded, else null
 * @param tasks         per task: its committed input offsets at the cut and its stores
 */
public record Manifest(
        String id,
        String applicationId,
        long createdAt,
        boolean stopped,
        String weirVersion,
        JsonNode topology,
        List<TaskEntry> tasks) {

    /** One task of the savepoint. */
    public record TaskEntry(
            String task, Map<String, ControlMessage.Offset> offsets, List<ControlMessage.StoreCopy> stores) {}

    public Manifest {
        topology = topology == null || topology.isNull() ? null : topology; // JSON null reads as a NullNode
        tasks = List.copyOf(tasks);
    }

    @JsonIgnore
    public long records() {
        return tasks.stream()
                .flatMap(t -> t.stores().stream())
                .mapToLong(ControlMessage.StoreCopy::records)
                .sum();
    }

    @JsonIgnore
    public long bytes() {
        return tasks.stream()
                .flatMap(t -> t.stores().stream())
                .mapToLong(ControlMessage.StoreCopy::bytes)
                .sum();
    }

    public byte[] encode() {
        return Json.bytes(this);
    }

    /**
     * @throws IllegalArgumentException if the bytes are not a manifest
     */
    public static Manifest decode(byte[] bytes) {
        try {
            return Json.reader().forType(Manifest.class).readValue(bytes);
        } catch (IOException e) {
            throw new IllegalArgumentException("not a savepoint manifest: " + e.getMessage(), e);
        }
    }
}
