package io.weir.internal.topology;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.weir.internal.json.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What a version of an application's topology means for its state and topics, in a stable,
 * machine-readable form: what each instance records in Kafka at start-up
 * ({@code <application.id>-topology}) and what {@link TopologyDiff} compares. Where
 * {@link TopologyModel} holds code (processors, serdes), this holds only names and format ids, so
 * it survives a JSON round trip and can be compared across versions and processes.
 *
 * <pre>{@code
 * {"descriptionVersion": 1, "weirVersion": "0.1.0", "applicationId": "wc",
 *  "subtopologies": [
 *    {"id": 0, "sourceTopics": ["lines"], "sourcePatterns": [], "repartitionTopicsRead": [],
 *     "repartitionTopicsWritten": ["wc-word-counts-repartition"], "sinkTopics": [],
 *     "nodes": ["source-0", ...]},
 *    {"id": 1, "sourceTopics": [], "repartitionTopicsRead": ["wc-word-counts-repartition"], ...}],
 *  "stores": [{"name": "word-counts", "kind": "key_value", "persistent": true, "logged": true,
 *              "changelogTopic": "wc-word-counts-changelog", "subtopology": 1,
 *              "keyFormat": "string", "valueFormat": "long"}]}
 * }</pre>
 *
 * {@code changelogTopic} is present for logged stores only, {@code windowSizeMs} for window
 * stores, {@code retentionMs} for window and session stores, {@code ttlMs} for key-value stores
 * with a TTL; {@code subtopology} is null for a store no processor uses. Formats are
 * {@link io.weir.serde.Serde#formatId()}. Readers ignore fields they do not know, so a newer
 * Weir may add some.
 *
 * @param descriptionVersion the version of this shape (1)
 * @param weirVersion        the Weir version that built it
 */
public record TopologyDescription(int descriptionVersion, String weirVersion, String applicationId,
                                  List<SubtopologyInfo> subtopologies, List<StoreInfo> stores) {

    /** The shape written now. */
    public static final int CURRENT_VERSION = 1;

    public TopologyDescription {
        subtopologies = List.copyOf(subtopologies);
        stores = List.copyOf(stores);
    }

    /** A sub-topology: what it reads and writes, and its nodes in the order they were added. */
    public record SubtopologyInfo(int id, List<String> sourceTopics, List<String> sourcePatterns,
                                  List<String> repartitionTopicsRead, List<String> repartitionTopicsWritten,
                                  List<String> sinkTopics, List<String> nodes) {
        public SubtopologyInfo {
            sourceTopics = List.copyOf(sourceTopics);
            sourcePatterns = List.copyOf(sourcePatterns);
            repartitionTopicsRead = List.copyOf(repartitionTopicsRead);
            repartitionTopicsWritten = List.copyOf(repartitionTopicsWritten);
            sinkTopics = List.copyOf(sinkTopics);
            nodes = List.copyOf(nodes);
        }
    }

    /** A state store: its name, kind, options, formats, and the sub-topology whose tasks own it. */
    public record StoreInfo(String name, String kind, boolean persistent, boolean logged,
                            @JsonInclude(JsonInclude.Include.NON_NULL) String changelogTopic, Integer subtopology,
                            String keyFormat, String valueFormat,
                            @JsonInclude(JsonInclude.Include.NON_NULL) Long windowSizeMs,
                            @JsonInclude(JsonInclude.Include.NON_NULL) Long retentionMs,
                            @JsonInclude(JsonInclude.Include.NON_NULL) Long ttlMs) {
    }

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
            stores.add(new StoreInfo(s.name(), s.kind().name().toLowerCase(Locale.ROOT), s.persistent(), s.logged(),
                    s.logged() ? s.changelogTopic(applicationId) : null, owners.get(s.name()),
                    s.keySerde().formatId(), s.valueSerde().formatId(),
                    s.kind() == StoreSpec.Kind.WINDOW ? s.windowSizeMs() : null,
                    s.retention() == null ? null : s.retentionMs(),
                    s.ttl() == null ? null : s.ttl().toMillis()));
        }
        return new TopologyDescription(CURRENT_VERSION, weirVersion, applicationId, subs, stores);
    }

    private static SubtopologyInfo subtopology(TopologyModel model, Subtopology st) {
        List<String> sources = new ArrayList<>();
        List<String> patterns = new ArrayList<>();
        List<String> read = new ArrayList<>();
        Set<String> written = new LinkedHashSet<>();
        Set<String> sinks = new LinkedHashSet<>();
        List<String> nodes = new ArrayList<>();
        for (NodeSpec n : model.nodes().values()) {
            if (!st.nodeNames().contains(n.name())) {
                continue;
            }
            nodes.add(n.name());
            if (n instanceof NodeSpec.Source s) {
                (s.internal() ? read : sources).addAll(s.topics());
                if (s.pattern() != null) {
                    patterns.add(s.pattern().pattern());
                }
            } else if (n instanceof NodeSpec.Sink s && s.topic() != null) {
                (s.internal() ? written : sinks).add(s.topic());
            }
        }
        return new SubtopologyInfo(st.id(), sources, patterns, read, List.copyOf(written), List.copyOf(sinks), nodes);
    }

    /** The store of that name, or null. */
    public StoreInfo store(String name) {
        return stores.stream().filter(s -> s.name().equals(name)).findFirst().orElse(null);
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
            TopologyDescription d = Json.reader().forType(TopologyDescription.class).readValue(json);
            if (d == null || d.applicationId() == null) {
                throw new IllegalArgumentException("not a topology description: " + abbreviate(json));
            }
            return d;
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not a topology description (" + e.getOriginalMessage() + "): "
                    + abbreviate(json), e);
        }
    }

    private static String abbreviate(String s) {
        return s.length() <= 80 ? s : s.substring(0, 80) + "...";
    }
}
