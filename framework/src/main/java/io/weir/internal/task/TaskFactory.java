package io.weir.internal.task;

import io.weir.errors.TopologyException;
import io.weir.internal.commit.OpenTransaction;
import io.weir.internal.state.TaskStores;
import io.weir.internal.time.WatermarkBroadcast;
import io.weir.internal.time.Watermarks;
import io.weir.internal.topology.NodeSpec;
import io.weir.internal.topology.StoreSpec;
import io.weir.internal.topology.Subtopology;
import io.weir.internal.topology.TopologyModel;
import io.weir.processor.Processor;
import io.weir.processor.TaskId;
import io.weir.state.internal.BytesStore;
import io.weir.time.TimestampExtractor;
import io.weir.time.Timestamps;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.TopicPartition;

/** Instantiates a sub-topology's nodes and stores for one task of one thread. */
public final class TaskFactory {

    private final TaskEnvironment env;
    private final TopologyModel model;
    private final Consumer<byte[], byte[]> consumer;
    private final OutputCollector collector;
    private final DeadLetters deadLetters;
    private final OpenTransaction transaction;
    private final LateRecords lateRecords;
    private final boolean storesInMemory;
    /** One per thread: its tasks' asynchronous steps wake it. */
    private final AsyncSignal asyncSignal = new AsyncSignal();

    private final AsyncMeters asyncMeters;

    /**
     * Where a thread's tasks write: outputs, dead letters, late records, all in its open transaction.
     */
    public record Outputs(
            OutputCollector collector, DeadLetters deadLetters, LateRecords lateRecords, OpenTransaction transaction) {}

    /**
     * @param storesInMemory every store in memory, whatever the topology declares (the test driver's option)
     * @param asyncMeters    the thread's meters of asynchronous steps
     */
    public TaskFactory(
            TaskEnvironment env,
            Consumer<byte[], byte[]> consumer,
            Outputs outputs,
            boolean storesInMemory,
            AsyncMeters asyncMeters) {
        this.lateRecords = outputs.lateRecords();
        this.storesInMemory = storesInMemory;
        this.env = env;
        this.model = env.model();
        this.consumer = consumer;
        this.collector = outputs.collector();
        this.deadLetters = outputs.deadLetters();
        this.transaction = outputs.transaction();
        this.asyncMeters = asyncMeters;
    }

    /** How the tasks' asynchronous steps wake the thread that runs them. */
    public AsyncSignal asyncSignal() {
        return asyncSignal;
    }

    /** The task an input partition belongs to, or null if no source reads its topic. */
    public TaskId taskIdFor(TopicPartition tp) {
        Subtopology st = model.subtopologyFor(tp.topic());
        return st == null ? null : new TaskId(st.id(), tp.partition());
    }

    /**
     * Creates task {@code id}, starting from {@code handedOver}: stores its standby copy on this
     * instance handed over open, by name (this takes ownership of them).
     */
    public ActiveTask create(TaskId id, Map<String, BytesStore> handedOver) {
        Subtopology st = model.subtopologies().get(id.subtopology());
        Watermarks watermarks = new Watermarks(
                env.config().eventTime().maxOutOfOrderness().toMillis(),
                env.config().eventTime().idleTimeout().toMillis());
        TaskContext context =
                new TaskContext(id, env.config().applicationId(), env.wallClock(), watermarks, lateRecords);
        context.maxEarlyLag(env.config().eventTime().earlyResultsMaxLagRecords());
        context.inputLag(env.backlog()::total);
        context.async(asyncSignal, asyncMeters, env.calls());
        context.tracing(env.tracing());
        List<StoreSpec> specs = model.storesOf(st);
        if (storesInMemory) {
            specs = specs.stream().map(s -> s.withPersistent(false)).toList();
        }
        TaskStores stores = TaskStores.open(
                specs,
                id,
                env.instanceDir().resolve(id.toString()),
                new TaskStores.Options(
                        env.config().applicationId(),
                        env.rocksDb(),
                        env.config().stateFlushInterval(),
                        env.config().storeReadCacheBytes(),
                        env.wallClock(),
                        env.changelogTopicIds()),
                handedOver);
        try {
            stores.bindSourceRecords(spec -> {
                NodeSpec.Source source = st.sourceFor(spec.sourceTopic());
                return new TableSourceRows(source, timestampsOf(source), env.wallClock(), spec);
            });
            Map<String, Node> nodes = instantiate(st, context, stores.typedByName());
            java.util.function.Function<String, SourceNode> sources = topic -> {
                NodeSpec.Source s = st.sourceFor(topic);
                return s == null ? null : (SourceNode) nodes.get(s.name());
            };
            return new ActiveTask(
                    id,
                    context,
                    new ArrayList<>(nodes.values()),
                    sources,
                    consumer,
                    deadLetters,
                    env.config().bufferedRecordsPerPartition(),
                    stores,
                    transaction,
                    new WatermarkBroadcast(id, model.eventTimeTopicsWrittenBy(st), collector));
        } catch (RuntimeException e) {
            stores.close();
            throw e;
        }
    }

    /** The source's extractor; else record time for repartition topics, else {@code default.timestamp}. */
    private TimestampExtractor<?, ?> timestampsOf(NodeSpec.Source s) {
        if (s.timestamps() != null) {
            return s.timestamps();
        }
        if (s.internal()) {
            return Timestamps.recordTime(); // the upstream task already stamped the record
        }
        return env.config().eventTime().defaultTimestamp().extractor();
    }

    @SuppressWarnings("unchecked")
    private Map<String, Node> instantiate(Subtopology st, TaskContext context, Map<String, Object> typedStores) {
        Map<String, Node> nodes = new LinkedHashMap<>();
        for (String name : model.nodes().keySet()) {
            if (!st.nodeNames().contains(name)) {
                continue;
            }
            NodeSpec spec = model.nodes().get(name);
            Node node;
            if (spec instanceof NodeSpec.Source s) {
                node = new SourceNode(s, timestampsOf(s), env.wallClock());
            } else if (spec instanceof NodeSpec.Sink s) {
                node = new SinkNode(s, collector, env.tracing());
            } else {
                NodeSpec.Processing p = (NodeSpec.Processing) spec;
                Processor<Object, Object, Object, Object> processor =
                        (Processor<Object, Object, Object, Object>) p.supplier().get();
                if (processor == null) {
                    throw new TopologyException("the supplier of processor '" + name + "' returned null");
                }
                Map<String, Object> connected = new HashMap<>();
                p.stores()
                        .forEach(storeName -> connected.put(
                                storeName,
                                typedStores.containsKey(storeName)
                                        ? typedStores.get(storeName)
                                        : env.globalStores().get(storeName)));
                node = new ProcessorNode(name, processor, context, Map.copyOf(connected));
            }
            nodes.put(name, node);
        }
        for (Node node : nodes.values()) {
            List<String> kids = model.children(node.name);
            node.children = kids.stream().map(nodes::get).toArray(Node[]::new);
            Map<String, Node> byName = new HashMap<>();
            kids.forEach(k -> byName.put(k, nodes.get(k)));
            node.childrenByName = Map.copyOf(byName);
            node.failures = context;
        }
        return nodes;
    }
}
