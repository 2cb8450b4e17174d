package io.weir.benchmarks.ysb;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.benchmarks.RunSpec;
import io.weir.benchmarks.systems.ClientSettings;
import io.weir.dsl.Emit;
import io.weir.dsl.GlobalTable;
import io.weir.serde.Serde;
import io.weir.time.Timestamps;
import java.time.Duration;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.GlobalKTable;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.TimeWindows;

/**
 * The Yahoo Streaming Benchmark's job in both systems, operator for operator: read the ad events
 * (JSON, decoded by the same Jackson serde in both), keep the {@code view}s, project them to their
 * ad, join the ad to its campaign (a global table of the campaigns topic), re-key by campaign (a
 * repartition topic), count per campaign in 10-second tumbling windows of event time, and write
 * {@code <campaign>@<window start>} → count. It is the job of the {@code ysb} sample
 * ({@code io.weir.samples.ysb.Ysb}), rebuilt here so the benchmark does not carry the samples.
 *
 * <p>How each writes a window's count as it grows, the only place the two differ:
 * <ul>
 *   <li>Weir: {@code Emit.early(100 ms)} (the commit interval), with the default
 *       {@code early.results.max.lag.records}, and a final count marked {@code weir.pane: final}
 *       once the watermark (the minimum over the upstream tasks, carried through the repartition
 *       topic) passes the window's end;</li>
 *   <li>Kafka Streams: its record cache, flushed at every commit (100 ms), so one update per
 *       window and commit; no final marker. Its windows keep a grace of {@link #KAFKA_STREAMS_GRACE}:
 *       its stream time after the repartition is the largest time seen from any upstream task, so
 *       with no grace the records of a slower upstream task near a window's end would be dropped and
 *       its counts come out short. Grace does not delay its updates, only how long a window takes
 *       updates.</li>
 * </ul>
 */
public final class YsbTopology {

    static final Duration WINDOW = Duration.ofSeconds(10);
    static final Duration KAFKA_STREAMS_GRACE = Duration.ofSeconds(30);
    static final String CAMPAIGNS_STORE = "ysb-campaigns";
    public static final String COUNTS_STORE = "ysb-campaign-counts";

    /** An ad event as the benchmark's generator writes it ({@link YsbEvents}). */
    record AdEvent(
            String userId,
            String pageId,
            String adId,
            String adType,
            String eventType,
            long eventTime,
            String ipAddress) {}

    private static final Serde<AdEvent> EVENTS = io.weir.serde.Serdes.json(AdEvent.class);

    private YsbTopology() {}

    /** The compacted topic of ad to campaign that goes with the run's input. */
    static String campaignsTopic(String eventsTopic) {
        return eventsTopic + "-campaigns";
    }

    public static Topology weir(RunSpec spec) {
        TopologyBuilder b = new TopologyBuilder();
        GlobalTable<String, String> campaignOfAd = b.globalTable(
                io.weir.serde.Serdes.strings(),
                io.weir.serde.Serdes.strings(),
                campaignsTopic(spec.inputTopic()),
                CAMPAIGNS_STORE);
        b.stream(io.weir.serde.Serdes.strings(), EVENTS, Timestamps.eventTime(AdEvent::eventTime), spec.inputTopic())
                .filter((k, e) -> "view".equals(e.eventType()))
                .mapValues(AdEvent::adId)
                .join(campaignOfAd, (k, ad) -> ad, (ad, campaign) -> campaign)
                .groupBy((k, campaign) -> campaign, io.weir.serde.Serdes.strings(), io.weir.serde.Serdes.strings())
                .windowedBy(io.weir.dsl.TimeWindows.of(WINDOW))
                .emit(Emit.early(ClientSettings.COMMIT_INTERVAL))
                .count(COUNTS_STORE)
                .map((w, count) -> io.weir.common.KeyValue.of(w.key() + "@" + w.start(), count))
                .to(spec.outputTopic(), io.weir.serde.Serdes.strings(), io.weir.serde.Serdes.longs());
        return b.build();
    }

    public static void kafkaStreams(StreamsBuilder builder, RunSpec spec) {
        GlobalKTable<String, String> campaignOfAd = builder.globalTable(
                campaignsTopic(spec.inputTopic()),
                Consumed.with(Serdes.String(), Serdes.String()),
                Materialized.as(CAMPAIGNS_STORE));
        builder.stream(
                        spec.inputTopic(),
                        Consumed.with(Serdes.String(), Serdes.serdeFrom(EVENTS::serialize, EVENTS::deserialize))
                                .withTimestampExtractor((r, previous) -> ((AdEvent) r.value()).eventTime()))
                .filter((k, e) -> "view".equals(e.eventType()))
                .mapValues(AdEvent::adId)
                .join(campaignOfAd, (k, ad) -> ad, (ad, campaign) -> campaign)
                .groupBy((k, campaign) -> campaign, Grouped.with(Serdes.String(), Serdes.String()))
                .windowedBy(TimeWindows.ofSizeAndGrace(WINDOW, KAFKA_STREAMS_GRACE))
                .count(Materialized.as(COUNTS_STORE))
                .toStream()
                .map((w, count) -> KeyValue.pair(w.key() + "@" + w.window().start(), count))
                .to(spec.outputTopic(), Produced.with(Serdes.String(), Serdes.Long()));
    }
}
