package io.weir.internal.query;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.weir.common.KeyValue;
import io.weir.errors.StoreClosedException;
import io.weir.internal.assign.TaskOwners;
import io.weir.internal.http.PeerClient;
import io.weir.internal.http.QueryAnswer;
import io.weir.internal.json.Json;
import io.weir.internal.topology.StoreSpec;
import io.weir.processor.TaskId;
import io.weir.serde.Serde;
import io.weir.state.internal.BytesIterator;
import io.weir.state.internal.BytesReader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Scans of a key-value store over every task of the application, a page at a time: the entries
 * with keys in {@code [from, to]} or starting with {@code prefix}, after the cursor {@code after},
 * in the order of the serialized keys (unsigned bytes: strings in UTF-8 order, non-negative
 * numbers in numeric order). The instance asked reads the tasks it holds and asks the owners of
 * the others for theirs ({@code tasks=...&forwarded=true}), each for at most {@code limit}
 * entries, and merges them: the first {@code limit} of the merge are the page, and
 * {@code next} (the last entry's {@code cursor}) starts the next one. A task no instance can
 * answer for makes the whole page a 503: a page never silently lacks a task's keys.
 */
final class StoreScans {

    static final int DEFAULT_LIMIT = 100;
    static final int MAX_LIMIT = 10_000;

    private final LocalCopies copies;
    private final Ownership ownership;
    private final KeyLocator locator;
    private final PeerClient peers;

    StoreScans(LocalCopies copies, Ownership ownership, KeyLocator locator, PeerClient peers) {
        this.copies = copies;
        this.ownership = ownership;
        this.locator = locator;
        this.peers = peers;
    }

    /** One entry read: its serialized key (the merge order and the cursor) and its JSON. */
    private record Entry(byte[] key, JsonNode json) {}

    QueryAnswer scan(StoreSpec spec, Map<String, String> params) {
        if (spec.kind() != StoreSpec.Kind.KEY_VALUE) {
            throw new Answers.BadQuery(
                    "'" + spec.name() + "' is a " + spec.kind().label() + " store; only key-value"
                            + " stores are scanned (query a key's "
                            + (spec.kind() == StoreSpec.Kind.WINDOW
                                    ? "windows with" + " /stores/" + spec.name() + "/keys/{key}/windows)"
                                    : "sessions with /stores/" + spec.name() + "/keys/{key}/sessions)"));
        }
        Bounds bounds = Bounds.of(spec.keySerde(), params);
        int limit = Answers.limit(params, DEFAULT_LIMIT, MAX_LIMIT);
        Staleness bound = Answers.staleness(params);
        TaskOwners owners = ownership.current();
        boolean forwarded = "true".equals(params.get("forwarded"));
        List<TaskId> tasks = forwarded ? tasksParam(params, spec) : allTasks(spec, owners);
        if (tasks == null) {
            return Answers.unavailable("this instance has not received an assignment yet", null);
        }
        List<List<Entry>> parts = new ArrayList<>();
        SortedMap<String, List<TaskId>> remote = new TreeMap<>();
        ArrayNode from = Json.object().arrayNode();
        long maxLag = 0;
        List<String> problems = new ArrayList<>();
        for (TaskId task : tasks) {
            Optional<LocalCopies.Copy> read = copies.find(spec, task, bound);
            if (read.isPresent()) {
                try {
                    parts.add(scanTask(spec, read.get().reader(), bounds, limit));
                } catch (StoreClosedException closing) {
                    return Answers.unavailable(
                            "task " + task + " closed on this instance while it was read (it" + " moved); retry",
                            task.toString());
                }
                maxLag = Math.max(maxLag, read.get().lag());
                from.addObject()
                        .put("task", task.toString())
                        .put("instance", ownership.instanceId())
                        .put("source", read.get().source())
                        .put("lag", read.get().lag());
            } else if (forwarded) {
                return Answers.unavailable(
                        "this instance does not run task " + task + " of store '" + spec.name()
                                + "' (it moved or is restoring)"
                                + (bound.allowsStandby() ? " and keeps no copy within " + bound : ""),
                        task.toString());
            } else {
                Optional<String> owner = owners.activeOf(task);
                if (owner.isEmpty() || owner.get().equals(ownership.instanceId())) {
                    problems.add(
                            "task " + task + (owner.isEmpty() ? " is moving between instances" : " is restoring here"));
                } else {
                    remote.computeIfAbsent(owner.get(), k -> new ArrayList<>()).add(task);
                }
            }
        }
        if (!problems.isEmpty()) {
            return Answers.unavailable(
                    "cannot scan store '" + spec.name() + "' now: " + String.join("; ", problems) + "; retry", null);
        }
        boolean more = false;
        for (Map.Entry<String, List<TaskId>> r : remote.entrySet()) {
            Map<String, String> asked = new TreeMap<>(params);
            asked.put("tasks", r.getValue().stream().map(TaskId::toString).collect(Collectors.joining(",")));
            QueryAnswer a = Answers.ask(
                    peers,
                    owners,
                    r.getKey(),
                    Answers.forwarded("/stores/" + Answers.encode(spec.name()) + "/keys", asked),
                    problems);
            if (a == null || a.status() != 200) {
                return a != null && a.status() != 503
                        ? a
                        : Answers.unavailable(
                                "cannot scan store '" + spec.name() + "' now: " + String.join("; ", problems)
                                        + "; retry",
                                null);
            }
            List<Entry> entries = new ArrayList<>();
            for (JsonNode e : a.body().path("entries")) {
                entries.add(
                        new Entry(Base64.getUrlDecoder().decode(e.path("cursor").asText()), e));
            }
            parts.add(entries);
            more |= !a.body().path("next").isNull();
            maxLag = Math.max(maxLag, a.body().path("lag").asLong());
            a.body().path("from").forEach(from::add);
        }
        List<Entry> merged = new ArrayList<>();
        parts.forEach(merged::addAll);
        merged.sort((x, y) -> Arrays.compareUnsigned(x.key(), y.key()));
        for (List<Entry> part : parts) {
            more |= part.size() >= limit;
        }
        ObjectNode body = Json.object();
        body.put("store", spec.name());
        body.put("instance", ownership.instanceId());
        body.put("lag", maxLag);
        ArrayNode entries = body.putArray("entries");
        merged.stream().limit(limit).forEach(e -> entries.add(e.json()));
        boolean hasNext = merged.size() > limit || (more && !merged.isEmpty());
        if (hasNext) {
            body.put(
                    "next",
                    merged.get(Math.min(limit, merged.size()) - 1)
                            .json()
                            .path("cursor")
                            .asText());
        } else {
            body.putNull("next");
        }
        body.set("from", from);
        return QueryAnswer.ok(body);
    }

    /** Up to {@code limit} entries of one task after the cursor, in key order. */
    private static List<Entry> scanTask(StoreSpec spec, BytesReader reader, Bounds bounds, int limit) {
        @SuppressWarnings("unchecked")
        Serde<Object> keySerde = (Serde<Object>) spec.keySerde();
        @SuppressWarnings("unchecked")
        Serde<Object> valueSerde = (Serde<Object>) spec.valueSerde();
        List<Entry> out = new ArrayList<>();
        byte[] prefix = bounds.prefix();
        // With a cursor, a prefix scan seeks to the cursor rather than skipping every key before it.
        try (BytesIterator it = prefix != null && bounds.after() == null
                ? reader.prefix(prefix)
                : reader.range(bounds.start(), bounds.to(), false)) {
            while (it.hasNext() && out.size() < limit) {
                KeyValue<byte[], byte[]> e = it.next();
                if (bounds.after() != null && Arrays.compareUnsigned(e.key(), bounds.after()) <= 0) {
                    continue;
                }
                if (prefix != null && !startsWith(e.key(), prefix)) {
                    if (Arrays.compareUnsigned(e.key(), prefix) > 0) {
                        break;
                    }
                    continue;
                }
                ObjectNode json = Json.object();
                json.set("key", ValueJson.of(keySerde, keySerde.deserialize(spec.name(), e.key())));
                json.set("value", ValueJson.of(valueSerde, valueSerde.deserialize(spec.name(), e.value())));
                json.put("cursor", Base64.getUrlEncoder().withoutPadding().encodeToString(e.key()));
                out.add(new Entry(e.key(), json));
            }
        }
        return out;
    }

    private static boolean startsWith(byte[] key, byte[] prefix) {
        return key.length >= prefix.length && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
    }

    private List<TaskId> allTasks(StoreSpec spec, TaskOwners owners) {
        int subtopology = locator.subtopologyOf(spec.name()).orElseThrow();
        Integer n = owners.tasks().get(subtopology);
        if (n == null) {
            return null;
        }
        List<TaskId> tasks = new ArrayList<>();
        for (int p = 0; p < n; p++) {
            tasks.add(new TaskId(subtopology, p));
        }
        return tasks;
    }

    private List<TaskId> tasksParam(Map<String, String> params, StoreSpec spec) {
        String v = params.getOrDefault("tasks", "");
        int subtopology = locator.subtopologyOf(spec.name()).orElseThrow();
        List<TaskId> tasks = new ArrayList<>();
        try {
            for (String t : v.split(",")) {
                TaskId id = TaskId.parse(t.trim());
                if (id.subtopology() != subtopology) {
                    throw new IllegalArgumentException("task " + id + " does not hold store '" + spec.name() + "'");
                }
                tasks.add(id);
            }
        } catch (IllegalArgumentException e) {
            throw new Answers.BadQuery("tasks must list tasks of the store's sub-topology: " + e.getMessage());
        }
        return tasks;
    }

    /**
     * What a scan covers: {@code [from, to]} (either open) or a prefix, and the cursor after which it
     * resumes.
     */
    record Bounds(byte[] from, byte[] to, byte[] prefix, byte[] after) {

        /** Where a task's iteration starts: {@code from}, or the cursor if that is further. */
        byte[] start() {
            if (after == null) {
                return from;
            }
            return from == null || Arrays.compareUnsigned(after, from) > 0 ? after : from;
        }

        static Bounds of(Serde<?> keySerde, Map<String, String> params) {
            KeyText.Encoding encoding;
            try {
                encoding = KeyText.Encoding.parse(params.get("keyEncoding"));
            } catch (IllegalArgumentException e) {
                throw new Answers.BadQuery(e.getMessage());
            }
            byte[] from = key(keySerde, params.get("from"), encoding, "from");
            byte[] to = key(keySerde, params.get("to"), encoding, "to");
            String prefixText = params.get("prefix");
            byte[] prefix = null;
            if (prefixText != null) {
                if (from != null || to != null) {
                    throw new Answers.BadQuery("give either prefix or from/to, not both");
                }
                prefix = encoding == KeyText.Encoding.BASE64
                        ? key(keySerde, prefixText, encoding, "prefix")
                        : prefixText.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            }
            byte[] after = null;
            String cursor = params.get("after");
            if (cursor != null && !cursor.isEmpty()) {
                try {
                    after = Base64.getUrlDecoder().decode(cursor);
                } catch (IllegalArgumentException e) {
                    throw new Answers.BadQuery(
                            "after must be the cursor (next) of a previous page, not '" + cursor + "'");
                }
            }
            return new Bounds(from, to, prefix, after);
        }

        private static byte[] key(Serde<?> serde, String text, KeyText.Encoding encoding, String name) {
            if (text == null) {
                return null;
            }
            try {
                return KeyText.bytes(serde, text, encoding);
            } catch (IllegalArgumentException e) {
                throw new Answers.BadQuery(name + ": " + e.getMessage());
            }
        }
    }
}
