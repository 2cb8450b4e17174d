package io.weir.internal.topology;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.weir.internal.json.Json;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A topology as one JSON document, for programs and for people: what each instance records in Kafka
 * at start-up ({@code <application.id>-topology}, compared across versions by {@link TopologyDiff}),
 * what {@code GET /topology} answers and what {@code weir topology show} prints. Where
 * {@link TopologyModel} holds code (processors, serdes), this holds only names and format ids, so
 * it survives a JSON round trip and can be compared across versions and processes.
 *
 * <pre>{@code
 * {"descriptionVersion": 1, "weirVersion": "0.1.0", "applicationId": "wc",
 *  "subtopologies": [
 *    {"id": 0, "sourceTopics": ["lines"], "sourcePatterns": [], "repartitionTopicsRead": [],
 *     "repartitionTopicsWritten": ["wc-word-counts-repartition"], "sinkTopics": [],
 *     "nodes": ["source-0", "flat-map-values-1", "group-by-2", "word-counts-repartition-sink"],
 *     "graph": [{"name": "source-0", "type": "source", "topics": ["lines"], "internal": false,
 *                "children": ["flat-map-values-1"]},
 *               ...
 *               {"name": "word-counts-repartition-sink", "type": "sink",
 *                "topic": "wc-word-counts-repartition", "internal": true, "children": []}]},
 *    {"id": 1, "sourceTopics": [], "repartitionTopicsRead": ["wc-word-counts-repartition"], ...
 *     "graph": [...
 *               {"name": "word-counts-aggregate", "type": "processor", "stores": ["word-counts"],
 *                "children": ["sink-3"]}, ...]}],
 *  "stores": [{"name": "word-counts", "kind": "key_value", "persistent": true, "logged": true,
 *              "changelogTopic": "wc-word-counts-changelog", "subtopology": 1,
 *              "keyFormat": "string", "valueFormat": "long"}],
 *  "globalTables": [],
 *  "internalTopics": [{"name": "wc-word-counts-repartition", "kind": "repartition", "subtopology": 1},
 *                     {"name": "wc-word-counts-changelog", "kind": "changelog", "store": "word-counts",
 *                      "subtopology": 1}]}
 * }</pre>
 *
 * A sub-topology's {@code sourceTopics} are the application's input topics; the repartition
 * topics it reads and writes are listed apart. {@code nodes} names its nodes in the order they were
 * added to the topology; {@code graph} has the same nodes with their type and edges: a source's
 * {@code topics} (empty, and a {@code pattern}, when it reads a pattern), a processor's
 * {@code stores}, a sink's {@code topic} (absent when the topic is chosen per record), whether a
 * source's or sink's topic is a repartition topic ({@code internal}), a repartition source's
 * {@code partitions} when the topology fixes its topic's count, and every node's
 * {@code children}. A store's
 * {@code changelogTopic} is present for logged stores only, {@code windowSizeMs} for window stores,
 * {@code retentionMs} for window and session stores, {@code ttlMs} for key-value stores with a TTL;
 * its {@code subtopology} is null for a store no processor uses; formats are
 * {@link io.weir.serde.Serde#formatId()}. {@code internalTopics} lists the topics Weir creates
 * (derived from the sub-topologies and stores; repartition topics by sub-topology, with their fixed
 * {@code partitions} if any, then changelogs).
 * {@code globalTables} lists the global tables (store, topic, formats): every instance keeps all of
 * each, outside the sub-topologies.
 *
 * <p>Compatibility: the record outlives versions (a rolling upgrade, a rollback), so fields are
 * only ever added, never renamed or retyped. Readers ignore fields they do not know, so a record
 * written by a newer Weir still reads and its check still runs; a field missing from an older
 * record reads as empty (a record written before {@code graph} existed has none).
 *
 * @param descriptionVersion the version of this shape (1)
 * @param weirVersion        the Weir version that built it
 */
public record TopologyDescription(
        int descriptionVersion,
        String weirVersion,
        String applicationId,
        List<SubtopologyInfo> subtopologies,
        List<StoreInfo> stores,
        List<GlobalTableInfo> globalTables) {

    /** The shape written now. */
    public static final int CURRENT_VERSION = 1;

    public TopologyDescription {
        subtopologies = List.copyOf(subtopologies);
        stores = List.copyOf(stores);
        globalTables = globalTables == null ? List.of() : List.copyOf(globalTables); // absent from older records
    }

    /** A description without global tables. */
    public TopologyDescription(
            int descriptionVersion,
            String weirVersion,
            String applicationId,
            List<SubtopologyInfo> subtopologies,
            List<StoreInfo> stores) {
        this(descriptionVersion, weirVersion, applicationId, subtopologies, stores, List.of());
    }

    /** A global table: its store, the topic it keeps, and the formats of its keys and values. */
    public record GlobalTableInfo(String store, String topic, String keyFormat, String valueFormat) {}

    /** A sub-topology: what it reads and writes, and its nodes in the order they were added. */
    public record SubtopologyInfo(
            int id,
            List<String> sourceTopics,
            List<String> sourcePatterns,
            List<String> repartitionTopicsRead,
            List<String> repartitionTopicsWritten,
            List<String> sinkTopics,
            List<String> nodes,
            List<NodeInfo> graph) {
        public SubtopologyInfo {
            sourceTopics = List.copyOf(sourceTopics);
            sourcePatterns = List.copyOf(sourcePatterns);
            repartitionTopicsRead = List.copyOf(repartitionTopicsRead);
            repartitionTopicsWritten = List.copyOf(repartitionTopicsWritten);
            sinkTopics = List.copyOf(sinkTopics);
            nodes = List.copyOf(nodes);
            graph = graph == null ? List.of() : List.copyOf(graph); // absent from records of older versions
        }
    }

    /**
     * A node with its edges; the fields that do not apply to its {@code type} ({@code source},
     * {@code processor}, {@code sink}) are null and left out of the JSON.
     *
     * @param topics   a source's topics (empty when it reads a pattern)
     * @param pattern  a source's pattern
     * @param topic    a sink's topic; null when it is chosen per record
     * @param internal for a source or sink, whether its topic is a repartition topic
     * @param partitions for a source of a repartition topic, the partition count the topology fixes
     *                   ({@code Repartitioned.withPartitions}); absent when it is derived
     * @param stores   a processor's stores
     * @param children the nodes it forwards to, in the order they were added
     */
    public record NodeInfo(
            String name,
            String type,
            @JsonInclude(JsonInclude.Include.NON_NULL) List<String> topics,
            @JsonInclude(JsonInclude.Include.NON_NULL) String pattern,
            @JsonInclude(JsonInclude.Include.NON_NULL) String topic,
            @JsonInclude(JsonInclude.Include.NON_NULL) Boolean internal,
            @JsonInclude(JsonInclude.Include.NON_NULL) Integer partitions,
            @JsonInclude(JsonInclude.Include.NON_NULL) List<String> stores,
            List<String> children,
            @JsonInclude(JsonInclude.Include.NON_NULL) Map<String, Object> options) {
        public NodeInfo {
            options = options == null ? null : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(options));
            topics = topics == null ? null : List.copyOf(topics);
            stores = stores == null ? null : List.copyOf(stores);
            children = children == null ? List.of() : List.copyOf(children);
        }
    }

    /**
     * A state store: its name, kind, options, formats, and the sub-topology whose tasks own it.
     * {@code changelogIsSourceTopic} is true when its changelog is the user topic a table is read
     * from (not an internal topic: Weir neither creates nor deletes it), absent otherwise.
     */
    public record StoreInfo(
            String name,
            String kind,
            boolean persistent,
            boolean logged,
            @JsonInclude(JsonInclude.Include.NON_NULL) String changelogTopic,
            Integer subtopology,
            String keyFormat,
            String valueFormat,
            @JsonInclude(JsonInclude.Include.NON_NULL) Long windowSizeMs,
            @JsonInclude(JsonInclude.Include.NON_NULL) Long retentionMs,
            @JsonInclude(JsonInclude.Include.NON_NULL) Long ttlMs,
            @JsonInclude(JsonInclude.Include.NON_NULL) Boolean changelogIsSourceTopic) {

        /** A store whose changelog, if any, is a topic of its own. */
        public StoreInfo(
                String name,
                String kind,
                boolean persistent,
                boolean logged,
                String changelogTopic,
                Integer subtopology,
                String keyFormat,
                String valueFormat,
                Long windowSizeMs,
                Long retentionMs,
                Long ttlMs) {
            this(
                    name,
                    kind,
                    persistent,
                    logged,
                    changelogTopic,
                    subtopology,
                    keyFormat,
                    valueFormat,
                    windowSizeMs,
                    retentionMs,
                    ttlMs,
                    null);
        }
    }

    /**
     * A topic Weir creates and owns.
     *
     * @param kind        {@code repartition} or {@code changelog}
     * @param store       a changelog's store
     * @param subtopology the sub-topology reading a repartition topic, or owning a changelog's store;
     *                    null if there is none
     * @param partitions  a repartition topic's partition count when the topology fixes it; absent
     *                    when it is derived from the input topics at start-up
     */
    public record InternalTopicInfo(
            String name,
            String kind,
            @JsonInclude(JsonInclude.Include.NON_NULL) String store,
            Integer subtopology,
            @JsonInclude(JsonInclude.Include.NON_NULL) Integer partitions) {}

    /**
     * The description of a topology.
     *
     * @param model         resolved for {@code applicationId} (repartition topics prefixed)
     * @param weirVersion   the Weir version building it
     */
    public static TopologyDescription of(TopologyModel model, String applicationId, String weirVersion) {
        List<SubtopologyInfo> subs = new ArrayList<>();
        for (Subtopology st : model.subtopologies()) {
            subs.add(subtopology(model, st));
        }
        Map<String, Integer> owners = new LinkedHashMap<>();
        for (Subtopology st : model.subtopologies()) {
            model.storesOf(st).forEach(s -> owners.put(s.name(), st.id()));
        }
        List<StoreInfo> stores = new ArrayList<>();
        for (StoreSpec s : model.stores().values()) {
            stores.add(new StoreInfo(
                    s.name(),
                    s.kind().name().toLowerCase(Locale.ROOT),
                    s.persistent(),
                    s.logged(),
                    s.logged() ? s.changelogTopic(applicationId) : null,
                    owners.get(s.name()),
                    s.keySerde().formatId(),
                    s.valueSerde().formatId(),
                    s.kind() == StoreSpec.Kind.WINDOW ? s.windowSizeMs() : null,
                    s.retention() == null ? null : s.retentionMs(),
                    s.ttl() == null ? null : s.ttl().toMillis(),
                    s.changelogIsSource() ? Boolean.TRUE : null));
        }
        List<GlobalTableInfo> globals = new ArrayList<>();
        for (GlobalTableSpec g : model.globalTables().values()) {
            globals.add(new GlobalTableInfo(
                    g.storeName(),
                    g.topic(),
                    g.keySerde().formatId(),
                    g.valueSerde().formatId()));
        }
        return new TopologyDescription(CURRENT_VERSION, weirVersion, applicationId, subs, stores, globals);
    }

    private static SubtopologyInfo subtopology(TopologyModel model, Subtopology st) {
        List<String> sources = new ArrayList<>();
        List<String> patterns = new ArrayList<>();
        List<String> read = new ArrayList<>();
        Set<String> written = new LinkedHashSet<>();
        Set<String> sinks = new LinkedHashSet<>();
        List<String> nodes = new ArrayList<>();
        List<NodeInfo> graph = new ArrayList<>();
        // The model's own order (as added), not the sub-topology's discovery order.
        for (NodeSpec n : model.nodes().values()) {
            if (!st.nodeNames().contains(n.name())) {
                continue;
            }
            nodes.add(n.name());
            graph.add(node(n, model.children(n.name())));
            if (n instanceof NodeSpec.Source s) {
                (s.internal() ? read : sources).addAll(s.topics());
                if (s.pattern() != null) {
                    patterns.add(s.pattern().pattern());
                }
            } else if (n instanceof NodeSpec.Sink s && s.topic() != null) {
                (s.internal() ? written : sinks).add(s.topic());
            }
        }
        return new SubtopologyInfo(
                st.id(), sources, patterns, read, List.copyOf(written), List.copyOf(sinks), nodes, graph);
    }

    private static NodeInfo node(NodeSpec n, List<String> children) {
        if (n instanceof NodeSpec.Source s) {
            return new NodeInfo(
                    s.name(),
                    "source",
                    s.topics(),
                    s.pattern() == null ? null : s.pattern().pattern(),
                    null,
                    s.internal(),
                    s.fixedPartitions() ? s.partitions() : null,
                    null,
                    children,
                    null);
        } else if (n instanceof NodeSpec.Sink s) {
            return new NodeInfo(s.name(), "sink", null, null, s.topic(), s.internal(), null, null, children, null);
        }
        NodeSpec.Processing p = (NodeSpec.Processing) n;
        Map<String, Object> options = null;
        if (p.supplier() instanceof DescribedStep d) {
            options = new LinkedHashMap<>();
            options.put("kind", d.stepKind());
            options.putAll(d.stepOptions());
        }
        return new NodeInfo(n.name(), "processor", null, null, null, null, null, p.stores(), children, options);
    }

    /** The store of that name, or null. */
    public StoreInfo store(String name) {
        return stores.stream().filter(s -> s.name().equals(name)).findFirst().orElse(null);
    }

    /**
     * The topics Weir creates for this topology: the repartition topics by sub-topology (each with
     * the one reading it), then the changelogs in store order. Derived, so written but never read.
     */
    @JsonProperty(value = "internalTopics", access = JsonProperty.Access.READ_ONLY)
    public List<InternalTopicInfo> internalTopics() {
        Set<String> repartition = new LinkedHashSet<>();
        Map<String, Integer> readers = new HashMap<>();
        for (SubtopologyInfo st : subtopologies) {
            repartition.addAll(st.repartitionTopicsRead());
            repartition.addAll(st.repartitionTopicsWritten());
            st.repartitionTopicsRead().forEach(t -> readers.put(t, st.id()));
        }
        Map<String, Integer> fixed = fixedPartitions();
        List<InternalTopicInfo> topics = new ArrayList<>();
        repartition.forEach(
                t -> topics.add(new InternalTopicInfo(t, "repartition", null, readers.get(t), fixed.get(t))));
        for (StoreInfo s : stores) {
            if (s.changelogTopic() != null && !Boolean.TRUE.equals(s.changelogIsSourceTopic())) {
                topics.add(new InternalTopicInfo(s.changelogTopic(), "changelog", s.name(), s.subtopology(), null));
            }
        }
        return topics;
    }

    /** The partition counts of the repartition topics whose count the topology fixes, by topic. */
    Map<String, Integer> fixedPartitions() {
        Map<String, Integer> fixed = new LinkedHashMap<>();
        for (SubtopologyInfo st : subtopologies) {
            for (NodeInfo n : st.graph()) {
                if (n.partitions() != null && n.topics() != null) {
                    n.topics().forEach(t -> fixed.put(t, n.partitions()));
                }
            }
        }
        return fixed;
    }

    /** As JSON, indented ({@link Json#pretty}). */
    public String toJson() {
        return Json.pretty(this);
    }

    /** As a JSON tree. */
    public JsonNode toJsonTree() {
        return Json.tree(this);
    }

    /**
     * Reads what {@link #toJson()} wrote (by this or another Weir version).
     *
     * @throws IllegalArgumentException if {@code json} is not a topology description
     */
    public static TopologyDescription parse(String json) {
        try {
            TopologyDescription d =
                    Json.reader().forType(TopologyDescription.class).readValue(json);
            if (d == null || d.applicationId() == null) {
                throw new IllegalArgumentException("not a topology description: " + abbreviate(json));
            }
            return d;
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(
                    "not a topology description (" + e.getOriginalMessage() + "): " + abbreviate(json), e);
        }
    }

    private static String abbreviate(String s) {
        return s.length() <= 80 ? s : s.substring(0, 80) + "...";
    }
}
