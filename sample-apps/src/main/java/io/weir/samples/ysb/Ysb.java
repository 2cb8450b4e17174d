package io.weir.samples.ysb;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.common.KeyValue;
import io.weir.dsl.Emit;
import io.weir.dsl.GlobalTable;
import io.weir.dsl.TimeWindows;
import io.weir.serde.Serdes;
import io.weir.time.Timestamps;
import java.time.Duration;

/**
 * The Yahoo Streaming Benchmark's job: keep the {@code view} events, project them to their ad and
 * time, join each ad to its campaign (a global table of the campaigns topic, so the events need no
 * partitioning), and count the views per campaign in 10-second tumbling windows of event time,
 * writing each window's count as it grows ({@code emit}) and its final count when the watermark
 * passes its end. Results: key {@code <campaign>@<window start>}, value the count.
 */
public final class Ysb {

    public static final Duration WINDOW = Duration.ofSeconds(10);

    private Ysb() {}

    /**
     * The topology as {@code serve ysb} runs it, with the sample's topics: the provider that
     * {@code weir topology diff}, {@code weir savepoint restore} and {@code weir topics} load with
     * {@code --topology io.weir.samples.ysb.Ysb} (see docs/replay-and-savepoints.md, "Giving the CLI your topology").
     */
    public static Topology topology() {
        return YsbService.sample()
                .topology()
                .apply(YsbService.sample().inputTopic(), YsbService.sample().outputTopic());
    }

    /** The job; {@code emit} sets how often a window's count is written before its final one. */
    public static Topology topology(String events, String campaigns, String output, Emit emit) {
        TopologyBuilder b = new TopologyBuilder();
        GlobalTable<String, String> campaignOfAd =
                b.globalTable(Serdes.strings(), Serdes.strings(), campaigns, "ysb-campaigns");
        b.stream(Serdes.strings(), Serdes.json(AdEvent.class), Timestamps.eventTime(AdEvent::eventTime), events)
                .filter((k, e) -> "view".equals(e.eventType()))
                .mapValues(AdEvent::adId)
                .join(campaignOfAd, (k, ad) -> ad, (ad, campaign) -> campaign)
                .groupBy((k, campaign) -> campaign, Serdes.strings(), Serdes.strings())
                .windowedBy(TimeWindows.of(WINDOW))
                .emit(emit)
                .count("ysb-campaign-counts")
                .map((w, count) -> KeyValue.of(w.key() + "@" + w.start(), count))
                .to(output, Serdes.strings(), Serdes.longs());
        return b.build();
    }
}
