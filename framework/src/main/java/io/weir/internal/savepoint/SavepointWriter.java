package io.weir.internal.savepoint;

import io.weir.common.KeyValue;
import io.weir.common.internal.Worker;
import io.weir.internal.config.InternalTopic;
import io.weir.internal.topology.StoreSpec;
import io.weir.processor.TaskId;
import io.weir.state.KeyValueIterator;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Copies paused tasks' stores into the savepoint topic, on a thread of its own, while the stream
 * threads go on processing: each store is read through an iterator opened at the cut, which for
 * RocksDB reads a consistent snapshot of that moment whatever is written after (an in-memory
 * store is copied at the cut instead). Once a task's stores are written and acknowledged, it
 * reports {@link ControlMessage.Done} with each store's record count, bytes and CRC-32.
 *
 * <p>A copy that fails (a store closed under it because its task moved, the savepoint topic not
 * writable) aborts the savepoint.
 */
final class SavepointWriter implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SavepointWriter.class);

    /** One store of a paused task: its spec and its entries as of the cut. */
    record StoreSource(StoreSpec spec, KeyValueIterator<byte[], byte[]> entries) {}

    /** What a stream thread hands over for one paused task. */
    record TaskCopy(TaskId task, Map<TopicPartition, OffsetAndMetadata> offsets, List<StoreSource> stores) {}

    /** A store sent, awaiting its acknowledgements. */
    private record Sent(StoreSpec spec, Chunks chunks, AtomicLong firstOffset, AtomicLong lastOffset) {}

    private final String applicationId;
    private final String instanceId;
    private final KafkaProducer<byte[], byte[]> producer;
    private final SavepointControl control;
    private final String threadName;
    /** The copies to write, in turn, by the worker. */
    private final BlockingQueue<Runnable> copies = new LinkedBlockingQueue<>();
    /** Started with the first copy: most instances never write a savepoint. */
    private Worker worker;

    SavepointWriter(
            String applicationId, String instanceId, KafkaProducer<byte[], byte[]> producer, SavepointControl control) {
        this.applicationId = applicationId;
        this.instanceId = instanceId;
        this.producer = producer;
        this.control = control;
        this.threadName = applicationId + "-" + instanceId + "-savepoint-writer";
    }

    /** Queues the copy of a paused task; stream threads call it. */
    void write(SavepointControl.Progress p, TaskCopy copy) {
        synchronized (this) {
            if (worker == null) {
                worker = Worker.loop(threadName, self -> copies.take().run());
            }
        }
        copies.add(() -> {
            try {
                copy(p, copy);
            } catch (RuntimeException e) {
                control.abort(p, "copying the stores of task " + copy.task() + " failed: " + e);
            } finally {
                copy.stores().forEach(s -> s.entries().close());
                control.written(p);
            }
        });
    }

    private void copy(SavepointControl.Progress p, TaskCopy copy) {
        long started = System.nanoTime();
        String topic = InternalTopic.SAVEPOINTS.of(applicationId);
        AtomicReference<Exception> failure = new AtomicReference<>();
        List<Sent> pending = new ArrayList<>();
        for (StoreSource s : copy.stores()) {
            AtomicLong first = new AtomicLong(Long.MAX_VALUE);
            AtomicLong last = new AtomicLong(-1);
            Chunks chunks = new Chunks(
                    SavepointTopics.CHUNK_BYTES,
                    (seq, bytes) -> producer.send(
                            new ProducerRecord<>(
                                    topic,
                                    SavepointTopics.DATA_PARTITION,
                                    SavepointTopics.dataKey(
                                            p.id(),
                                            copy.task().toString(),
                                            s.spec().name(),
                                            seq),
                                    bytes),
                            (md, e) -> {
                                if (e != null) {
                                    failure.compareAndSet(null, e);
                                } else {
                                    first.accumulateAndGet(md.offset(), Math::min);
                                    last.accumulateAndGet(md.offset(), Math::max);
                                }
                            }));
            while (s.entries().hasNext()) {
                if (p.aborted()) {
                    throw new IllegalStateException("the savepoint was aborted: " + p.abortedReason);
                }
                KeyValue<byte[], byte[]> e = s.entries().next();
                chunks.add(e.key(), e.value());
            }
            chunks.finish();
            pending.add(new Sent(s.spec(), chunks, first, last));
        }
        producer.flush();
        if (failure.get() != null) {
            throw new IllegalStateException("writing to " + topic + " failed: " + failure.get(), failure.get());
        }
        List<ControlMessage.StoreCopy> stores = new ArrayList<>();
        long records = 0;
        for (Sent sent : pending) {
            StoreSpec spec = sent.spec();
            Chunks c = sent.chunks();
            records += c.records();
            stores.add(new ControlMessage.StoreCopy(
                    spec.name(),
                    spec.kind().name().toLowerCase(Locale.ROOT),
                    SavepointCompatibility.formatId(spec.keySerde()),
                    SavepointCompatibility.formatId(spec.valueSerde()),
                    c.records(),
                    c.bytes(),
                    c.crc32(),
                    c.chunks(),
                    sent.firstOffset().get(),
                    sent.lastOffset().get()));
        }
        control.send(new ControlMessage.Done(
                p.id(), copy.task().toString(), instanceId, SavepointControl.offsets(copy.offsets()), stores));
        log.info(
                "savepoint {}: task {} written ({} entries in {} stores) in {} ms",
                p.id(),
                copy.task(),
                records,
                stores.size(),
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
    }

    /** Stops the writer: the copy under way is interrupted, those queued are dropped. */
    @Override
    public void close() {
        Worker w;
        synchronized (this) {
            w = worker;
        }
        if (w != null) {
            w.close();
        }
    }
}
