package io.weir.internal.http;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.weir.internal.json.Json;
import io.weir.internal.topology.NodeSpec;
import io.weir.internal.topology.StoreSpec;
import io.weir.internal.topology.Subtopology;
import io.weir.internal.topology.TopologyDescription;
import io.weir.internal.topology.TopologyModel;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A topology as JSON: what {@code GET /topology} answers and what a command-line tool prints to
 * describe an application. Where {@link TopologyModel#describe()} is for people, this is for
 * programs; its shape is stable:
 *
 * <pre>{@code
 * {"applicationId": "wc",
 *  "subtopologies": [
 *    {"id": 0, "sourceTopics": ["lines"], "sourcePatterns": [],
 *     "nodes": [{"name": "source-0", "type": "source", "topics": ["lines"], "internal": false,
 *                "children": ["flat-map-values-1"]},
 *               ...
 *               {"name": "word-counts-repartition-sink", "type": "sink",
 *                "topic": "wc-word-counts-repartition", "internal": true, "children": []}]},
 *    {"id": 1, ...
 *     "nodes": [...
 *               {"name": "word-counts-aggregate", "type": "processor", "stores": ["word-counts"],
 *                "children": ["sink-3"]}, ...]}],
 *  "stores": [{"name": "word-counts", "kind": "key_value", "persistent": true, "logged": true,
 *              "changelogTopic": "wc-word-counts-changelog", "subtopology": 1,
 *              "keyFormat": "string", "valueFormat": "long"}],
 *  "internalTopics": [{"name": "wc-word-counts-repartition", "kind": "repartition", "subtopology": 1},
 *                     {"name": "wc-word-counts-changelog", "kind": "changelog", "store": "word-counts",
 *                      "subtopology": 1}]}
 * }</pre>
 *
 * A source reading a pattern has {@code "pattern"} and empty {@code "topics"}; a sink whose topic
 * is chosen per record has {@code "topic": null}; {@code "changelogTopic"} is present for logged
 * stores only; {@code "subtopology"} of a store no processor uses is null; the stores' entries are
 * those of {@link TopologyDescription} (formats, window size, retention, TTL). Nodes are in the order
 * they were added to the topology.
 *
 * <p>Stateless and thread-safe: the model is immutable and every call builds a new tree.
 */
public final class TopologyJson {

    private TopologyJson() {
    }

    /**
     * The topology as a JSON tree.
     *
     * @param model         a model resolved for {@code applicationId} (internal topics prefixed)
     * @param applicationId {@code application.id}, which names the changelog topics
     */
    public static ObjectNode toJson(TopologyModel model, String applicationId) {
        ObjectNode json = Json.object().put("applicationId", applicationId);
        ArrayNode subtopologies = json.putArray("subtopologies");
        model.subtopologies().forEach(st -> subtopology(model, st, subtopologies.addObject()));
        // The stores as the recorded topology describes them (TopologyDescription), formats included.
        TopologyDescription description = TopologyDescription.of(model, applicationId, null);
        json.set("stores", description.toJsonTree().get("stores"));
        Map<String, Integer> storeOwners = new LinkedHashMap<>();
        description.stores().forEach(s -> storeOwners.put(s.name(), s.subtopology()));
        internalTopics(model, applicationId, storeOwners, json.putArray("internalTopics"));
        return json;
    }

    /** {@link #toJson} as indented text. */
    public static String render(TopologyModel model, String applicationId) {
        return Json.pretty(toJson(model, applicationId));
    }

    private static void subtopology(TopologyModel model, Subtopology st, ObjectNode json) {
        json.put("id", st.id());
        ArrayNode topics = json.putArray("sourceTopics");
        ArrayNode patterns = json.putArray("sourcePatterns");
        for (NodeSpec.Source s : st.sources()) {
            s.topics().forEach(topics::add);
            if (s.pattern() != null) {
                patterns.add(s.pattern().pattern());
            }
        }
        ArrayNode nodes = json.putArray("nodes");
        // The model's own order (as added), not the sub-topology's discovery order.
        model.nodes().values().stream()
                .filter(n -> st.nodeNames().contains(n.name()))
                .forEach(n -> node(model, n, nodes.addObject()));
    }

    private static void node(TopologyModel model, NodeSpec node, ObjectNode json) {
        json.put("name", node.name());
        if (node instanceof NodeSpec.Source s) {
            json.put("type", "source");
            ArrayNode topics = json.putArray("topics");
            s.topics().forEach(topics::add);
            if (s.pattern() != null) {
                json.put("pattern", s.pattern().pattern());
            }
            json.put("internal", s.internal());
        } else if (node instanceof NodeSpec.Processing p) {
            json.put("type", "processor");
            ArrayNode stores = json.putArray("stores");
            p.stores().forEach(stores::add);
        } else if (node instanceof NodeSpec.Sink s) {
            json.put("type", "sink");
            json.put("topic", s.topic());
            json.put("internal", s.internal());
        }
        ArrayNode children = json.putArray("children");
        model.children(node.name()).forEach(children::add);
    }

    private static void internalTopics(TopologyModel model, String applicationId, Map<String, Integer> storeOwners,
                                       ArrayNode json) {
        Set<String> repartition = new LinkedHashSet<>();
        for (NodeSpec n : model.nodes().values()) {
            if (n instanceof NodeSpec.Source s && s.internal()) {
                repartition.addAll(s.topics());
            } else if (n instanceof NodeSpec.Sink s && s.internal() && s.topic() != null) {
                repartition.add(s.topic());
            }
        }
        for (String topic : repartition) {
            Subtopology reader = model.subtopologyFor(topic);
            json.addObject().put("name", topic).put("kind", "repartition")
                    .put("subtopology", reader == null ? null : reader.id());
        }
        for (StoreSpec s : model.stores().values()) {
            if (s.logged()) {
                json.addObject().put("name", s.changelogTopic(applicationId)).put("kind", "changelog")
                        .put("store", s.name()).put("subtopology", storeOwners.get(s.name()));
            }
        }
    }
}
