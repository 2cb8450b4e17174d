package io.weir.ported;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.dsl.JoinWindows;
import io.weir.dsl.RecordStream;
import io.weir.serde.Serdes;
import java.time.Duration;

/**
 * The application of Confluent's {@code StreamToStreamJoinIntegrationTest}: ad impressions and ad
 * clicks of one ad within 5 seconds of each other joined (an outer join), an impression without a
 * click written as {@code shown/not-clicked-yet} once no click can join it any more.
 */
final class StreamToStreamJoin {

    static final String AD_IMPRESSIONS = "adImpressions";
    static final String AD_CLICKS = "adClicks";
    static final String OUTPUT = "output-topic";
    static final Duration WINDOW = Duration.ofSeconds(5);

    private StreamToStreamJoin() {}

    static Topology topology() {
        TopologyBuilder b = new TopologyBuilder();
        RecordStream<String, String> impressions = b.stream(Serdes.strings(), Serdes.strings(), AD_IMPRESSIONS);
        RecordStream<String, String> clicks = b.stream(Serdes.strings(), Serdes.strings(), AD_CLICKS);
        impressions
                .outerJoin(
                        clicks,
                        (impression, click) ->
                                click == null ? impression + "/not-clicked-yet" : impression + "/" + click,
                        JoinWindows.of(WINDOW), // no grace, as the original's
                        "impressions-and-clicks")
                .to(OUTPUT, Serdes.strings(), Serdes.strings());
        return b.build();
    }
}
