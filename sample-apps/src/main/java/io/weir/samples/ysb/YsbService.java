package io.weir.samples.ysb;

import io.weir.dsl.Emit;
import io.weir.samples.common.RecordGenerator;
import io.weir.samples.common.ServedSample;
import io.weir.serde.Serdes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The YSB job as a served sample ({@code serve ysb}, {@code load ysb}): reads {@code ad-events}
 * and the campaigns of {@code ad-campaigns} (a compacted topic, which {@code load} fills with the
 * sample's 100 campaigns first), writes {@code campaign-window-counts} with an early count every
 * second.
 */
public final class YsbService {

    static final String CAMPAIGNS = "ad-campaigns";
    private static final int SERVED_CAMPAIGNS = 100;
    private static final long SERVED_SEED = 42;

    private YsbService() {}

    public static ServedSample sample() {
        return new ServedSample(
                "ysb",
                "ysb",
                "ad-events",
                "campaign-window-counts",
                (in, out) -> Ysb.topology(in, CAMPAIGNS, out, Emit.early(Duration.ofSeconds(1))),
                () -> events(System.nanoTime()),
                new ServedSample.Reference(CAMPAIGNS, YsbService::campaigns));
    }

    /** Ad events of the served campaigns, stamped when sent, keyed by user. */
    static RecordGenerator events(long seed) {
        YsbData data = new YsbData(SERVED_CAMPAIGNS, SERVED_SEED);
        java.util.Random users = new java.util.Random(seed);
        return (topic, timestamp) -> {
            AdEvent e = data.next(timestamp);
            return new ProducerRecord<>(
                    topic,
                    null,
                    timestamp,
                    Serdes.strings().serialize(topic, e.userId() + "-" + users.nextInt(10)),
                    Serdes.json(AdEvent.class).serialize(topic, e));
        };
    }

    /** Ad to campaign, the same every time. */
    static List<ProducerRecord<byte[], byte[]>> campaigns() {
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        new YsbData(SERVED_CAMPAIGNS, SERVED_SEED)
                .campaignOfAd()
                .forEach((ad, campaign) -> records.add(new ProducerRecord<>(
                        CAMPAIGNS,
                        Serdes.strings().serialize(CAMPAIGNS, ad),
                        Serdes.strings().serialize(CAMPAIGNS, campaign))));
        return records;
    }
}
