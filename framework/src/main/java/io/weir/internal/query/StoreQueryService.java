package io.weir.internal.query;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.weir.common.KeyValue;
import io.weir.errors.StoreClosedException;
import io.weir.internal.assign.TaskOwners;
import io.weir.internal.http.PeerClient;
import io.weir.internal.http.QueryAnswer;
import io.weir.internal.http.StoreQueryView;
import io.weir.internal.json.Json;
import io.weir.internal.state.LocalStores;
import io.weir.internal.state.TypedReader;
import io.weir.internal.state.TypedSessionReader;
import io.weir.internal.state.TypedWindowReader;
import io.weir.internal.topology.StoreSpec;
import io.weir.internal.topology.TopologyModel;
import io.weir.processor.TaskId;
import io.weir.query.KeyOwners;
import io.weir.serde.Serde;
import io.weir.state.KeyValueIterator;
import io.weir.state.ReadOnlyKeyValueStore;
import io.weir.state.Windowed;
import io.weir.state.internal.BytesReader;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Answers key queries for the HTTP endpoints, in this order: from this instance's committed state
 * when it runs the key's task and the task is restored; if the caller accepts a lag
 * ({@code maxLag} records, {@code maxStalenessMs}), from the task restoring here or a standby copy
 * here within it ({@code source} {@code restoring} or {@code standby}, with its {@code lag}); by asking the instance the
 * group placed the task on; by asking the instances with a standby copy (again only within the
 * caller's bound); else 503 with {@code Retry-After}. A forwarded request is answered where it
 * arrives or not at all. Without a bound, only the task's active copy answers: while the task
 * moves or restores a caller gets 503 and retries, never state that is behind.
 *
 * <p>Every answer names the instance that read the state ({@code instance}) and the task
 * ({@code task}). A global table is read on the instance asked: every instance holds all of it.
 */
public final class StoreQueryService implements StoreQueryView {

    /** Windows or sessions in one answer unless {@code limit} says otherwise. */
    static final int DEFAULT_LIMIT = 1000;

    private final TopologyModel model;
    private final LocalStores local;
    private final Ownership ownership;
    private final KeyLocator locator;
    private final PeerClient peers;
    private final Function<String, ReadOnlyKeyValueStore<Object, Object>> globals;
    private final StoreScans scans;
    private final LocalCopies copies;

    /**
     * @param globals the read view of a global table's store by name (the instance holds it in full)
     */
    public StoreQueryService(
            TopologyModel model,
            LocalStores local,
            Ownership ownership,
            PeerClient peers,
            Function<String, ReadOnlyKeyValueStore<Object, Object>> globals) {
        this.model = model;
        this.local = local;
        this.ownership = ownership;
        this.locator = new KeyLocator(model);
        this.peers = peers;
        this.globals = globals;
        this.copies = new LocalCopies(local);
        this.scans = new StoreScans(copies, ownership, locator, peers);
    }

    @Override
    public QueryAnswer scan(String store, Map<String, String> params) {
        try {
            if (model.globalTables().containsKey(store)) {
                throw new Answers.BadQuery("'" + store + "' is a global table: every instance holds all of it, so"
                        + " read it in the application (WeirApp.store) or look its keys up with /stores/" + store
                        + "/keys/{key}; scans are for the stores the tasks hold");
            }
            StoreSpec spec = model.stores().get(store);
            if (spec == null || locator.subtopologyOf(store).isEmpty()) {
                return unknownStore(store);
            }
            return scans.scan(spec, params);
        } catch (Answers.BadQuery e) {
            return Answers.error(400, "bad_request", e.getMessage());
        }
    }

    /**
     * Where {@code key} of {@code store} lives; empty before this instance has an assignment.
     *
     * @throws IllegalArgumentException if no task holds a store of that name (global tables included:
     *                                  every instance holds them)
     */
    public Optional<KeyOwners> owners(String store, Object key) {
        StoreSpec spec = model.stores().get(store);
        if (spec == null || locator.subtopologyOf(store).isEmpty()) {
            throw new IllegalArgumentException("no task holds a store named '" + store + "'"
                    + (model.globalTables().containsKey(store)
                            ? " (a global table is on every instance)"
                            : "; the stores: " + new java.util.TreeSet<>(queryable())));
        }
        @SuppressWarnings("unchecked")
        Serde<Object> keySerde = (Serde<Object>) spec.keySerde();
        TaskOwners owners = ownership.current();
        TaskId task = locator.taskOf(store, keySerde.serialize(store, key), owners);
        if (task == null) {
            return Optional.empty();
        }
        Optional<KeyOwners.Instance> active =
                owners.activeOf(task).map(i -> new KeyOwners.Instance(i, owners.endpointOf(i)));
        List<KeyOwners.Instance> standbys = owners.standbysOf(task).stream()
                .map(i -> new KeyOwners.Instance(i, owners.endpointOf(i)))
                .toList();
        return Optional.of(new KeyOwners(store, task, active, standbys));
    }

    private QueryAnswer unknownStore(String store) {
        return Answers.error(
                404,
                "unknown_store",
                "the application has no store named '" + store + "'; its stores: "
                        + new java.util.TreeSet<>(queryable()));
    }

    @Override
    public QueryAnswer answer(KeyQuery q) {
        try {
            return answerOrThrow(q);
        } catch (Answers.BadQuery e) {
            return Answers.error(400, "bad_request", e.getMessage());
        }
    }

    private QueryAnswer answerOrThrow(KeyQuery q) {
        if (model.globalTables().containsKey(q.store())) {
            return global(q);
        }
        StoreSpec spec = model.stores().get(q.store());
        if (spec == null || locator.subtopologyOf(q.store()).isEmpty()) {
            return unknownStore(q.store());
        }
        requireKind(spec, q.target());
        byte[] keyBytes = keyBytes(spec.keySerde(), q);
        Object key = spec.keySerde().deserialize(null, keyBytes);
        TaskOwners owners = ownership.current();
        TaskId task = locator.taskOf(spec.name(), keyBytes, owners);
        if (task == null) {
            return Answers.unavailable("this instance has not received an assignment yet", null);
        }
        Staleness bound = Answers.staleness(q.params());
        Optional<LocalCopies.Copy> copy = copies.find(spec, task, bound);
        if (copy.isPresent()) {
            return readHere(
                    spec,
                    q,
                    key,
                    task,
                    copy.get().reader(),
                    copy.get().source(),
                    copy.get().lag());
        }
        boolean forwarded = "true".equals(q.params().get("forwarded"));
        if (forwarded) {
            return Answers.unavailable(
                    "this instance does not run task " + task + " of store '" + spec.name() + "' (it moved"
                            + " or is restoring)" + (bound.allowsStandby() ? " and keeps no copy within " + bound : ""),
                    task == null ? null : task.toString());
        }
        List<String> problems = new ArrayList<>();
        Optional<String> owner = owners.activeOf(task);
        if (owner.isEmpty()) {
            problems.add("task " + task + " is moving between instances");
        } else if (owner.get().equals(ownership.instanceId())) {
            long left = local.restoring(spec, task)
                    .map(LocalStores.LaggingRead::lagRecords)
                    .orElse(-1L);
            problems.add("task " + task + " is restoring here ("
                    + (left < 0 ? "its restore has not started" : left + " changelog records left") + ")");
        } else {
            QueryAnswer a = Answers.ask(peers, owners, owner.get(), forwardPath(q), problems);
            if (a != null && a.status() != 503) {
                return a;
            }
        }
        if (bound.allowsStandby()) {
            for (String standby : owners.standbysOf(task)) {
                if (!standby.equals(ownership.instanceId())) {
                    QueryAnswer a = Answers.ask(peers, owners, standby, forwardPath(q), problems);
                    if (a != null && a.status() != 503) {
                        return a;
                    }
                }
            }
        }
        return Answers.unavailable(
                "no instance can answer for task " + task + " of store '" + spec.name() + "' now: "
                        + String.join("; ", problems) + "; retry"
                        + (bound.allowsStandby() ? "" : ", or accept a standby's answer with maxLag or maxStalenessMs"),
                task == null ? null : task.toString());
    }

    private QueryAnswer readHere(
            StoreSpec spec, KeyQuery q, Object key, TaskId task, BytesReader reader, String source, long lag) {
        ObjectNode body = answered(spec.name(), task, source, lag);
        body.set("key", ValueJson.of(spec.keySerde(), key));
        try {
            return read(spec, q, reader, key, body);
        } catch (StoreClosedException closing) {
            return Answers.unavailable(
                    "task " + task + " closed on this instance while it was read (it moved)",
                    task == null ? null : task.toString());
        }
    }

    private QueryAnswer read(StoreSpec spec, KeyQuery q, BytesReader reader, Object key, ObjectNode body) {
        @SuppressWarnings("unchecked")
        Serde<Object> keySerde = (Serde<Object>) spec.keySerde();
        @SuppressWarnings("unchecked")
        Serde<Object> valueSerde = (Serde<Object>) spec.valueSerde();
        switch (q.target()) {
            case VALUE -> {
                Object value = new TypedReader<>(spec.name(), spec.name(), reader, keySerde, valueSerde).get(key);
                if (value == null) {
                    body.put("error", "no_such_key")
                            .put("message", "store '" + spec.name() + "' has no value for" + " this key");
                    return new QueryAnswer(404, body, Map.of());
                }
                body.set("value", ValueJson.of(valueSerde, value));
                return QueryAnswer.ok(body);
            }
            case WINDOWS -> {
                long from = time(q, "from", 0);
                long to = time(q, "to", Long.MAX_VALUE);
                try (KeyValueIterator<Windowed<Object>, Object> it = new TypedWindowReader<>(
                                spec.name(), spec.name(), reader, keySerde, valueSerde, spec.windowSizeMs())
                        .fetch(key, from, to)) {
                    return QueryAnswer.ok(
                            list(body, "windows", it, valueSerde, Answers.limit(q.params(), DEFAULT_LIMIT, 100_000)));
                }
            }
            default -> {
                long from = time(q, "from", 0);
                long to = time(q, "to", Long.MAX_VALUE);
                try (KeyValueIterator<Windowed<Object>, Object> it = new TypedSessionReader<>(
                                spec.name(), spec.name(), reader, keySerde, valueSerde)
                        .findSessions(key, from, to)) {
                    return QueryAnswer.ok(
                            list(body, "sessions", it, valueSerde, Answers.limit(q.params(), DEFAULT_LIMIT, 100_000)));
                }
            }
        }
    }

    /**
     * Up to {@code limit} windows or sessions in start order; {@code next_from}, when there are
     * more, is the {@code from} of the next page (the start of the first one left out).
     */
    private static ObjectNode list(
            ObjectNode body,
            String field,
            KeyValueIterator<Windowed<Object>, Object> it,
            Serde<Object> valueSerde,
            int limit) {
        ArrayNode items = body.putArray(field);
        Long next = null;
        while (it.hasNext()) {
            KeyValue<Windowed<Object>, Object> kv = it.next();
            if (items.size() == limit) {
                next = kv.key().start();
                break;
            }
            ObjectNode item = items.addObject();
            item.put("start", kv.key().start()).put("end", kv.key().end());
            item.set("value", ValueJson.of(valueSerde, kv.value()));
        }
        if (next != null) {
            body.put("next_from", next);
        } else {
            body.putNull("next_from");
        }
        return body;
    }

    private QueryAnswer global(KeyQuery q) {
        if (q.target() != Target.VALUE) {
            throw new Answers.BadQuery("'" + q.store() + "' is a global table, a key-value store: query its keys with"
                    + " /stores/" + q.store() + "/keys/{key}");
        }
        var spec = model.globalTables().get(q.store());
        byte[] keyBytes = keyBytes(spec.keySerde(), q);
        Object key = spec.keySerde().deserialize(null, keyBytes);
        ObjectNode body = answered(q.store(), null, "global", 0);
        body.set("key", ValueJson.of(spec.keySerde(), key));
        Object value = globals.apply(q.store()).get(key);
        if (value == null) {
            body.put("error", "no_such_key")
                    .put("message", "global table '" + q.store() + "' has no value for this key");
            return new QueryAnswer(404, body, Map.of());
        }
        body.set("value", ValueJson.of(spec.valueSerde(), value));
        return QueryAnswer.ok(body);
    }

    private ObjectNode answered(String store, TaskId task, String source, long lag) {
        ObjectNode body = Json.object();
        body.put("store", store);
        body.put("instance", ownership.instanceId());
        if (task != null) {
            body.put("task", task.toString());
        }
        body.put("source", source);
        body.put("lag", lag);
        return body;
    }

    private static void requireKind(StoreSpec spec, Target target) {
        StoreSpec.Kind wanted = switch (target) {
            case VALUE -> StoreSpec.Kind.KEY_VALUE;
            case WINDOWS -> StoreSpec.Kind.WINDOW;
            case SESSIONS -> StoreSpec.Kind.SESSION;
        };
        if (spec.kind() != wanted) {
            String path = "/stores/" + spec.name() + "/keys/{key}"
                    + switch (spec.kind()) {
                        case KEY_VALUE -> "";
                        case WINDOW -> "/windows";
                        case SESSION -> "/sessions";
                    };
            throw new Answers.BadQuery(
                    "'" + spec.name() + "' is a " + spec.kind().label() + " store; query it with " + path);
        }
    }

    private static byte[] keyBytes(Serde<?> serde, KeyQuery q) {
        try {
            return KeyText.bytes(
                    serde, q.key(), KeyText.Encoding.parse(q.params().get("keyEncoding")));
        } catch (IllegalArgumentException e) {
            throw new Answers.BadQuery(e.getMessage());
        }
    }

    /** A time parameter: epoch milliseconds or an ISO-8601 instant. */
    private static long time(KeyQuery q, String name, long absent) {
        String v = q.params().get(name);
        if (v == null || v.isEmpty()) {
            return absent;
        }
        try {
            return v.chars().allMatch(c -> c == '-' || Character.isDigit(c))
                    ? Long.parseLong(v)
                    : Instant.parse(v).toEpochMilli();
        } catch (NumberFormatException | DateTimeParseException e) {
            throw new Answers.BadQuery(name + " must be epoch milliseconds or an ISO-8601 instant"
                    + " (2026-12-03T10:15:30Z), not '" + v + "'");
        }
    }

    /** The same request for the owner, marked forwarded so it is not forwarded again. */
    static String forwardPath(KeyQuery q) {
        StringBuilder path = new StringBuilder("/stores/")
                .append(Answers.encode(q.store()))
                .append("/keys/")
                .append(Answers.encode(q.key()));
        switch (q.target()) {
            case WINDOWS -> path.append("/windows");
            case SESSIONS -> path.append("/sessions");
            default -> {}
        }
        return Answers.forwarded(path.toString(), q.params());
    }

    private java.util.Set<String> queryable() {
        java.util.Set<String> names =
                new java.util.HashSet<>(model.globalTables().keySet());
        model.stores().keySet().stream()
                .filter(n -> locator.subtopologyOf(n).isPresent())
                .forEach(names::add);
        return names;
    }
}
