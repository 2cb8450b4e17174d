package io.weir.ported;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.common.KeyValue;
import io.weir.dsl.Emit;
import io.weir.dsl.RecordTable;
import io.weir.dsl.TimeWindows;
import io.weir.serde.Serde;
import io.weir.serde.Serdes;
import io.weir.time.Timestamps;

/**
 * Apache Kafka's {@code PageViewUntypedDemo}: {@link PageViewTyped}'s computation on untyped JSON
 * trees ({@code JsonNode}), with the users' regions as a table derived from the profiles
 * ({@code mapValues}, no store of its own: the join reads through the profiles' store).
 */
final class PageViewUntyped {

    static final String PAGE_VIEWS = "streams-pageview-input";
    static final String USER_PROFILES = "streams-userprofile-input";
    static final String OUTPUT = "streams-pageviewstats-untyped-output";

    static final Serde<JsonNode> JSON = Serdes.json(JsonNode.class);

    private PageViewUntyped() {}

    static Topology topology() {
        return topology(PageViewTyped.WINDOWS);
    }

    static Topology topology(TimeWindows windows) {
        TopologyBuilder b = new TopologyBuilder();
        RecordTable<String, String> regions = b.table(
                        Serdes.strings(),
                        JSON,
                        Timestamps.eventTime(PageViewUntyped::timestamp),
                        USER_PROFILES,
                        "user-profiles")
                .mapValues(profile -> profile.get("region").textValue());
        b.stream(Serdes.strings(), JSON, Timestamps.eventTime(PageViewUntyped::timestamp), PAGE_VIEWS)
                .leftJoin(regions, (view, region) -> (JsonNode) JsonNodeFactory.instance
                        .objectNode()
                        .put("user", view.get("user").textValue())
                        .put("page", view.get("page").textValue())
                        .put("region", region == null ? "UNKNOWN" : region))
                .map((user, view) -> KeyValue.of(view.get("region").textValue(), view))
                .withSerdes(Serdes.strings(), JSON)
                .groupByKey()
                .windowedBy(windows)
                .emit(Emit.everyUpdate()) // as PageViewTyped
                .count("views-per-region")
                .map((window, count) -> {
                    ObjectNode key = JsonNodeFactory.instance.objectNode();
                    key.put("window-start", window.start()).put("region", window.key());
                    ObjectNode value = JsonNodeFactory.instance.objectNode();
                    value.put("count", count);
                    return KeyValue.<JsonNode, JsonNode>of(key, value);
                })
                .to(OUTPUT, JSON, JSON);
        return b.build();
    }

    /** The original's timestamp extractor: the {@code timestamp} field of a view or a profile. */
    private static long timestamp(JsonNode value) {
        return value.get("timestamp").longValue();
    }
}
