package io.weir.samples.fraud;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.dsl.RecordTable;
import io.weir.processor.Processor;
import io.weir.processor.ProcessorContext;
import io.weir.processor.Record;
import io.weir.processor.Stores;
import io.weir.serde.Serdes;
import io.weir.state.KeyValueStore;
import io.weir.time.Timestamps;

/**
 * Fraud detection: card transactions, keyed by card, each judged against its card's history
 * ({@link FraudRules}: impossible travel since the previous transaction, or an amount far above
 * the card's running mean) by a processor keeping that history in the store {@code card-history},
 * after a left join with the card-holders table that names the holder (co-partitioned with the
 * transactions: both keyed by card; joined first, as {@code process} may change keys and a join
 * after it would repartition). The suspicious ones are written as {@link FraudAlert}s.
 *
 * <pre>
 * card-transactions ──► left join card-holders (table) ──► judge (store card-history) ──► fraud-alerts
 * </pre>
 */
public final class FraudDetection {

    public static final String HISTORY = "card-history";

    private FraudDetection() {}

    /**
     * The topology as {@code serve fraud-detection} runs it, with the sample's topics: the provider that
     * {@code weir topology diff}, {@code weir savepoint restore} and {@code weir topics} load with
     * {@code --topology io.weir.samples.fraud.FraudDetection} (see docs/replay-and-savepoints.md, "Giving the CLI your topology").
     */
    public static Topology topology() {
        return FraudDetectionService.sample()
                .topology()
                .apply(
                        FraudDetectionService.sample().inputTopic(),
                        FraudDetectionService.sample().outputTopic());
    }

    public static Topology topology(String transactions, String holders, String alerts) {
        TopologyBuilder b = new TopologyBuilder();
        RecordTable<String, CardHolder> cardHolders =
                b.table(Serdes.strings(), Serdes.json(CardHolder.class), holders, "card-holders");
        b.addStateStore(Stores.keyValueStore(HISTORY, Serdes.strings(), Serdes.json(CardHistory.class)));
        b.stream(
                        Serdes.strings(),
                        Serdes.json(Transaction.class),
                        Timestamps.eventTime(Transaction::time),
                        transactions)
                .leftJoin(cardHolders, (t, holder) -> new Held(t, holder == null ? null : holder.name()))
                .<String, FraudAlert>process(Judge::new, "judge", HISTORY)
                .to(alerts, Serdes.strings(), Serdes.json(FraudAlert.class));
        return b.build();
    }

    /** A transaction and the name of its card's holder ({@code null} when the card has none on record). */
    record Held(Transaction transaction, String holder) {}

    /** Judges each transaction against its card's history, then adds it to the history. */
    static final class Judge implements Processor<String, Held, String, FraudAlert> {
        private ProcessorContext<String, FraudAlert> context;
        private KeyValueStore<String, CardHistory> history;

        @Override
        public void init(ProcessorContext<String, FraudAlert> context) {
            this.context = context;
            this.history = context.getStateStore(HISTORY);
        }

        @Override
        public void process(Record<String, Held> record) {
            Transaction t = record.value() == null ? null : record.value().transaction();
            if (t == null || record.key() == null) {
                throw new IllegalArgumentException("a transaction needs its card as key and a value");
            }
            CardHistory before = history.get(record.key());
            FraudRules.judge(before, t)
                    .ifPresent(v -> context.forward(record.withValue(new FraudAlert(
                            t.id(),
                            t.card(),
                            v.reason(),
                            v.figure(),
                            t.amount(),
                            record.value().holder()))));
            history.put(record.key(), before == null ? CardHistory.first(t) : before.after(t));
        }
    }
}
