package io.weir.internal.savepoint;

import io.weir.common.internal.Deadline;
import io.weir.common.internal.Worker;
import io.weir.config.WeirConfig;
import io.weir.internal.cluster.ClientConfigs;
import io.weir.internal.cluster.topics.TopicSetup;
import io.weir.internal.config.ClientRole;
import io.weir.internal.config.InternalTopic;
import io.weir.internal.topology.TopologyModel;
import io.weir.processor.TaskId;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An instance's end of its application's control topic ({@link InternalTopic#CONTROL}): it
 * hears savepoint requests and every instance's progress, and tells the others of its own. Stream
 * threads ask it for the savepoint under way ({@link #current()}) and report their tasks through
 * it; a {@link SavepointWriter} copies their stores in the background.
 *
 * <p>It reads the control topic from its end at start: a savepoint requested before this instance
 * started is not its business (its tasks were assigned after the request, which aborts that
 * savepoint anyway, see {@link #abort}). A savepoint whose cut is not complete within the
 * request's timeout is aborted by every instance that sees the timeout pass; its tasks resume.
 *
 * <p>Threads: one thread of its own reads the topic; any thread may call the other methods.
 */
public final class SavepointControl implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SavepointControl.class);

    /** A savepoint this instance takes part in. */
    static final class Progress {
        final ControlMessage.Request request;
        final SavepointCut cut;
        /** When the cut must be complete, or the savepoint is aborted. */
        final Deadline cutDeadline;

        volatile String abortedReason;
        volatile boolean written;
        /** Stream threads that handed their tasks' copies over (or had none). */
        final AtomicInteger threadsSubmitted = new AtomicInteger();

        final AtomicInteger writesPending = new AtomicInteger();

        Progress(ControlMessage.Request request, SavepointCut cut, Deadline cutDeadline) {
            this.request = request;
            this.cut = cut;
            this.cutDeadline = cutDeadline;
        }

        String id() {
            return request.id();
        }

        boolean aborted() {
            return abortedReason != null;
        }
    }

    private final WeirConfig config;
    private final TopologyModel model;
    private final String instanceId;
    private final Admin admin;
    private final TopicPartition controlPartition;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final KafkaProducer<byte[], byte[]> producer;
    private final SavepointWriter writer;
    private final Runnable onStop;
    private Worker worker;
    private volatile Progress current;

    /**
     * @param onStop called once when a savepoint with {@code stop} has been written by this instance
     */
    public SavepointControl(
            WeirConfig config,
            ClientConfigs clients,
            TopologyModel model,
            String instanceId,
            Admin admin,
            Runnable onStop) {
        this.config = config;
        this.model = model;
        this.instanceId = instanceId;
        this.admin = admin;
        this.onStop = onStop;
        this.controlPartition = new TopicPartition(InternalTopic.CONTROL.of(config.applicationId()), 0);
        Map<String, Object> c = clients.plainConsumer("control");
        c.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 100);
        this.consumer = clients.kafka().consumer(ClientRole.ofInstance("control-consumer"), c);
        this.producer = clients.kafka().producer(ClientRole.ofInstance("savepoint-producer"), producerConfig(clients));
        this.writer = new SavepointWriter(config.applicationId(), instanceId, producer, this);
    }

    /** An idempotent producer for control messages and savepoint data (never in a transaction). */
    static Map<String, Object> producerConfig(ClientConfigs clients) {
        Map<String, Object> p = clients.plainProducer("savepoint");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, 2 * SavepointTopics.CHUNK_BYTES);
        p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 3 * SavepointTopics.CHUNK_BYTES);
        return p;
    }

    /** Starts reading the control topic (which {@link TopicSetup} created) at its end. */
    public void start() {
        consumer.assign(List.of(controlPartition));
        consumer.seekToEnd(List.of(controlPartition));
        consumer.position(controlPartition);
        // Not interrupted: the consumer's wakeup ends its poll.
        worker = Worker.named(config.applicationId() + "-" + instanceId + "-control")
                .interruptOnStop(false)
                .wakeUp(consumer::wakeup)
                .loop(self -> readControlTopic());
    }

    /** The savepoint under way that this instance takes part in, or null. */
    Progress current() {
        Progress p = current;
        return p == null || p.aborted() || p.written ? null : p;
    }

    /** Tells every instance that {@code task} paused for the cut with these committed offsets. */
    void paused(Progress p, TaskId task, Map<TopicPartition, OffsetAndMetadata> offsets) {
        p.cut.paused(task);
        send(new ControlMessage.Paused(p.id(), task.toString(), instanceId, p.cut.taskCount(), offsets(offsets)));
    }

    /** A stream thread hands over the copies of its paused tasks (possibly none) once the cut is complete. */
    void submit(Progress p, List<SavepointWriter.TaskCopy> copies) {
        p.writesPending.addAndGet(copies.size());
        p.threadsSubmitted.incrementAndGet();
        copies.forEach(c -> writer.write(p, c));
        maybeFinished(p);
    }

    /** The writer finished a task's copy. */
    void written(Progress p) {
        p.writesPending.decrementAndGet();
        maybeFinished(p);
    }

    private void maybeFinished(Progress p) {
        if (p.threadsSubmitted.get() < config.numStreamThreads() || p.writesPending.get() > 0 || p.written) {
            return;
        }
        synchronized (p) {
            if (p.written) {
                return;
            }
            p.written = true;
        }
        if (!p.aborted()) {
            log.info("savepoint {}: this instance's tasks are written", p.id());
            if (p.request.stop()) {
                log.info("savepoint {} was requested with stop: stopping {}", p.id(), config.applicationId());
                onStop.run();
            }
        }
    }

    /** Aborts the savepoint for every instance (a task moved, a copy failed): its tasks resume. */
    void abort(Progress p, String reason) {
        if (p.aborted()) {
            return;
        }
        p.abortedReason = reason;
        log.warn("savepoint {} aborted: {}", p.id(), reason);
        send(new ControlMessage.Aborted(p.id(), instanceId + ": " + reason));
    }

    void send(ControlMessage m) {
        producer.send(
                new ProducerRecord<>(
                        controlPartition.topic(), 0, m.id().getBytes(StandardCharsets.UTF_8), ControlCodec.encode(m)),
                (md, e) -> {
                    if (e != null) {
                        log.warn(
                                "savepoint {}: sending {} to {} failed: {}",
                                m.id(),
                                m.getClass().getSimpleName(),
                                controlPartition.topic(),
                                e.toString());
                    }
                });
    }

    static Map<String, ControlMessage.Offset> offsets(Map<TopicPartition, OffsetAndMetadata> offsets) {
        Map<String, ControlMessage.Offset> out = new java.util.TreeMap<>();
        offsets.forEach((tp, om) -> out.put(tp.toString(), new ControlMessage.Offset(om.offset(), om.metadata())));
        return out;
    }

    /** Reads the control topic once, and aborts a savepoint whose cut took too long. */
    private void readControlTopic() {
        try {
            for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                ControlMessage m = ControlCodec.decode(r.value());
                if (m != null) {
                    heard(m);
                }
            }
            Progress p = current;
            if (p != null && !p.aborted() && !p.cut.complete() && p.cutDeadline.expired()) {
                abort(
                        p,
                        "the cut was not complete within " + p.request.timeoutMs() + " ms (" + p.cut.pausedCount()
                                + " of " + p.cut.taskCount() + " tasks paused)");
            }
        } catch (org.apache.kafka.common.errors.WakeupException | org.apache.kafka.common.errors.InterruptException e) {
            throw e; // the stop
        } catch (RuntimeException e) {
            log.warn("reading the control topic {} failed: {}", controlPartition.topic(), e.toString());
        }
    }

    private void heard(ControlMessage m) {
        Progress p = current;
        if (m instanceof ControlMessage.Request r) {
            if (p != null && !p.aborted() && !p.written) {
                // One at a time: the later request fails rather than mix two cuts.
                send(new ControlMessage.Aborted(r.id(), "savepoint " + p.id() + " is under way"));
                return;
            }
            log.info(
                    "savepoint {} requested{}: pausing tasks at their next commit",
                    r.id(),
                    r.stop() ? " (stop after it)" : "");
            current = new Progress(
                    r,
                    SavepointCut.of(model, new TopicSetup(admin, config, model).tasksPerSubtopology()),
                    Deadline.after(Duration.ofMillis(r.timeoutMs())));
            // the cut drains repartition topics in their writers' order, which a cycle has not
            model.repartitionCycle()
                    .ifPresent(cycle -> abort(
                            current,
                            cycle + " (a foreign-key join): savepoints of such a topology are not supported yet"));
            return;
        }
        if (p == null || !p.id().equals(m.id())) {
            return;
        }
        if (m instanceof ControlMessage.Paused paused) {
            p.cut.paused(TaskId.parse(paused.task()));
        } else if (m instanceof ControlMessage.Aborted a && !p.aborted()) {
            p.abortedReason = a.reason();
            log.warn("savepoint {} aborted: {}", p.id(), a.reason());
        }
    }

    @Override
    public void close() {
        if (worker != null) {
            worker.close();
        }
        writer.close();
        try {
            consumer.close(Duration.ofSeconds(2));
        } catch (RuntimeException e) {
            log.debug("closing the control consumer failed", e);
        }
        producer.close(Duration.ofSeconds(5));
    }
}
