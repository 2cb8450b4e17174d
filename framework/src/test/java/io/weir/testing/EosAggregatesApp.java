package io.weir.testing;

import io.weir.TopologyBuilder;
import io.weir.WeirApp;
import io.weir.config.WeirConfig;
import io.weir.processor.Processor;
import io.weir.processor.ProcessorContext;
import io.weir.processor.Record;
import io.weir.processor.Stores;
import io.weir.serde.Serdes;
import io.weir.state.KeyValueStore;

/**
 * The application of the exactly-once fault tests, after Kafka Streams' {@code StreamsEosTest}:
 * reads String keys with 8-byte long values from {@code input}, writes every record unchanged to
 * {@code echo}, and keeps per key the running {@link Aggregate} (min, max, sum, count) in the
 * RocksDB store {@value #STORE} (changelogged), writing the new aggregate for every input record
 * to {@code aggregates}. Every output is one input's effect, so a test can tell a lost, a
 * duplicated and a reordered record apart.
 *
 * <p>Args, as {@link OpsApp}'s plus one: bootstrap input echo stateDir applicationId instanceId
 * threads aggregates. Exactly-once, one standby replica per task, HTTP on a free port; other
 * settings from {@code WEIR_*} environment variables. Prints {@link OpsApp#STARTED} with the port
 * once started, so {@link OpsInstance} runs it (see {@link OpsInstance.Spec#withApp}).
 */
public final class EosAggregatesApp {

    /** The store of the aggregates; its changelog is {@code <application.id>-aggregates-changelog}. */
    public static final String STORE = "aggregates";

    private EosAggregatesApp() {}

    public static void main(String[] args) throws Exception {
        String input = args[1];
        String echo = args[2];
        String aggregates = args[7];
        TopologyBuilder b = new TopologyBuilder();
        b.addSource("input", Serdes.strings(), Serdes.longs(), input)
                .addSink("echo", echo, Serdes.strings(), Serdes.longs(), "input")
                .addProcessor("aggregate", AggregateEach::new, "input")
                .addStateStore(Stores.keyValueStore(STORE, Serdes.strings(), Aggregate.SERDE), "aggregate")
                .addSink("aggregates", aggregates, Serdes.strings(), Aggregate.SERDE, "aggregate");
        WeirConfig config = OpsApp.config(args)
                .set("processing.guarantee", "exactly_once")
                .set("num.standby.replicas", 1)
                .build();
        WeirApp app = WeirApp.create(b.build(), config).start();
        OpsApp.announce(app);
        System.out.flush();
        app.runUntilShutdown();
        System.out.println("STOPPED");
        System.out.flush();
    }

    /** Adds each value to its key's aggregate and forwards the new aggregate: one output per input. */
    static final class AggregateEach implements Processor<String, Long, String, Aggregate> {
        private ProcessorContext<String, Aggregate> context;
        private KeyValueStore<String, Aggregate> store;

        @Override
        public void init(ProcessorContext<String, Aggregate> context) {
            this.context = context;
            this.store = context.getStateStore(STORE);
        }

        @Override
        public void process(Record<String, Long> record) {
            Aggregate updated = Aggregate.add(store.get(record.key()), record.value());
            store.put(record.key(), updated);
            context.forward(record.withValue(updated));
        }
    }
}
