package io.weir.cli;

import io.weir.common.internal.Deadline;
import io.weir.common.internal.KafkaCalls;
import io.weir.config.WeirConfig;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code weir dlq resend}: sends dead letters back to the topics they failed on, exactly once.
 *
 * <p>The dead-letter topic is read (read_committed) in the consumer group {@code --group} from
 * where that group last committed, and every resent record is sent by a transactional producer in
 * the same transaction as the group's new position: an interrupted resend leaves either a whole
 * transaction or nothing, and the next run continues after the last committed one without
 * duplicates. The transactional id follows the group ({@link #transactionalId()}), so a new run
 * fences (and aborts the open transaction of) a run that died. A resent record is the input record again: its key, value,
 * timestamp and own headers, without Weir's {@code weir.error.*} and {@code weir.source.*} headers,
 * with {@code weir.resent.from} (the dead letter's topic/partition/offset) and
 * {@code weir.resent.count}, to its original partition.
 *
 * <p>It refuses to loop: a dead letter that had been resent {@code --max-resends} times already
 * and failed again is not resent without {@code --force}, and nothing is ever resent into the
 * dead-letter topic itself. Records it passes (filtered out or refused) count as done for the
 * group: another {@code --group} looks at them again.
 */
@Command(
        name = "resend",
        mixinStandardHelpOptions = true,
        description = "Sends dead letters back to the topics they failed on, exactly once: in transactions that"
                + " also commit the resend's position in the dead-letter topic, so a rerun continues without"
                + " duplicates.")
final class DlqResend implements Callable<Integer> {

    @Mixin
    AppOptions app;

    @Mixin
    DlqFilter filter;

    @Option(
            names = "--group",
            paramLabel = "GROUP",
            description = "the consumer group that keeps the resend's position (default: <app>-dlq-resend)")
    String group;

    @Option(
            names = "--max-resends",
            paramLabel = "N",
            defaultValue = "1",
            description = "refuse a dead letter that was resent N times already and failed again (default:"
                    + " ${DEFAULT-VALUE})")
    int maxResends;

    @Option(names = "--force", description = "resend also dead letters that were resent --max-resends times already")
    boolean force;

    @Option(
            names = "--transaction-size",
            paramLabel = "N",
            defaultValue = "500",
            description = "dead letters per transaction (default: ${DEFAULT-VALUE})")
    int transactionSize;

    @Option(names = "--dry-run", description = "count what would be resent; send and commit nothing")
    boolean dryRun;

    /** What happened to the dead letters looked at. */
    private final Map<String, Long> resent = new TreeMap<>();

    private final Map<String, Long> refused = new TreeMap<>();
    private long filteredOut;

    @Override
    public Integer call() {
        if (maxResends < 1 || transactionSize < 1) {
            throw app.usage("--max-resends and --transaction-size must be at least 1");
        }
        WeirConfig config = app.config();
        String dlq = config.deadLetterTopic();
        String groupId = group != null ? group : app.id + "-dlq-resend";
        try (Admin admin = app.admin(config);
                KafkaConsumer<byte[], byte[]> consumer =
                        KafkaClients.groupReader(config, groupId, "weir-cli-dlq-resend");
                KafkaProducer<byte[], byte[]> producer =
                        dryRun ? null : KafkaClients.transactionalProducer(config, transactionalId())) {
            if (producer != null) {
                producer.initTransactions(); // aborts what a run that died left open
            }
            new Run(dlq, admin, consumer, producer).all();
        }
        report(app.out(), dlq, groupId);
        return Weir.OK;
    }

    /** One pass over the dead-letter topic, from the group's position to the ends taken at the start. */
    private final class Run {
        private final String dlq;
        private final Admin admin;
        private final KafkaConsumer<byte[], byte[]> consumer;
        private final KafkaProducer<byte[], byte[]> producer;
        /** Partition counts of the topics resent to. */
        private final Map<String, Integer> partitions = new HashMap<>();

        private final Map<TopicPartition, OffsetAndMetadata> pending = new HashMap<>();
        private int inTransaction;
        private boolean open;

        Run(String dlq, Admin admin, KafkaConsumer<byte[], byte[]> consumer, KafkaProducer<byte[], byte[]> producer) {
            this.dlq = dlq;
            this.admin = admin;
            this.consumer = consumer;
            this.producer = producer;
        }

        void all() {
            List<TopicPartition> tps = DlqReader.partitions(consumer, dlq);
            consumer.assign(tps);
            Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(new HashSet<>(tps));
            for (TopicPartition tp : tps) {
                OffsetAndMetadata at = committed.get(tp);
                if (at == null) {
                    consumer.seekToBeginning(List.of(tp));
                } else {
                    consumer.seek(tp, at.offset());
                }
            }
            Map<TopicPartition, Long> ends = consumer.endOffsets(tps);
            Deadline deadline = Deadline.after(DlqReader.READ_TIMEOUT);
            try {
                while (behind(ends)) {
                    if (deadline.expired()) {
                        throw new CommandFailedException("reading '" + dlq + "' to its end took more than "
                                + DlqReader.READ_TIMEOUT.toMinutes() + " minutes; rerun to continue");
                    }
                    for (ConsumerRecord<byte[], byte[]> r : consumer.poll(java.time.Duration.ofMillis(200))) {
                        TopicPartition tp = new TopicPartition(r.topic(), r.partition());
                        if (r.offset() < ends.get(tp)) {
                            take(new DeadLetter(r));
                            pending.put(tp, new OffsetAndMetadata(r.offset() + 1));
                            if (++inTransaction >= transactionSize) {
                                commit();
                            }
                        }
                    }
                }
                commit();
            } catch (RuntimeException e) {
                abort(e);
                throw e;
            }
        }

        private boolean behind(Map<TopicPartition, Long> ends) {
            List<TopicPartition> done = new ArrayList<>();
            boolean behind = false;
            for (Map.Entry<TopicPartition, Long> e : ends.entrySet()) {
                if (consumer.position(e.getKey()) < e.getValue()) {
                    behind = true;
                } else {
                    done.add(e.getKey());
                }
            }
            consumer.pause(done);
            return behind;
        }

        private void take(DeadLetter d) {
            if (!filter.matches(d)) {
                filteredOut++;
                return;
            }
            String target = d.sourceTopic();
            if (target == null) {
                refused.merge("not a Weir dead letter (no weir.source.topic)", 1L, Long::sum);
                return;
            }
            if (target.equals(dlq)) {
                refused.merge("its source is the dead-letter topic itself", 1L, Long::sum);
                return;
            }
            if (d.resentCount() >= maxResends && !force) {
                refused.merge(
                        "resent " + d.resentCount() + " times already and failed again (--max-resends, --force)",
                        1L,
                        Long::sum);
                return;
            }
            if (producer != null) {
                ProducerRecord<byte[], byte[]> again = resendOf(d, target);
                begin();
                producer.send(again);
            }
            resent.merge(target, 1L, Long::sum);
        }

        private ProducerRecord<byte[], byte[]> resendOf(DeadLetter d, String target) {
            List<Header> headers = new ArrayList<>();
            for (Header h : d.record().headers()) {
                if (!DeadLetter.weirs(h)) {
                    headers.add(h);
                }
            }
            headers.add(header(DeadLetter.RESENT_FROM, d.position()));
            headers.add(header(DeadLetter.RESENT_COUNT, Integer.toString(d.resentCount() + 1)));
            int p = d.sourcePartition();
            Integer partition = p >= 0 && p < partitionsOf(target) ? p : null;
            return new ProducerRecord<>(
                    target,
                    partition,
                    d.record().timestamp(),
                    d.record().key(),
                    d.record().value(),
                    headers);
        }

        /** The partition count of {@code topic}; fails the run (its transaction aborted) if it does not exist. */
        private int partitionsOf(String topic) {
            Integer n = partitions.get(topic);
            if (n == null) {
                try {
                    TopicDescription t = KafkaCalls.get(
                                    admin.describeTopics(List.of(topic)).allTopicNames(),
                                    ClusterOptions.TIMEOUT,
                                    "describe topic '" + topic + "'")
                            .get(topic);
                    n = t.partitions().size();
                } catch (io.weir.errors.ClusterException e) {
                    if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                        throw new CommandFailedException("the source topic '" + topic + "' does not exist; "
                                + resentTotal() + " dead letters before it were resent and committed; create it"
                                + " and rerun to continue");
                    }
                    throw e;
                }
                partitions.put(topic, n);
            }
            return n;
        }

        /** Commits the resent records and the new position in one transaction. */
        private void commit() {
            if (pending.isEmpty()) {
                return;
            }
            if (producer != null) {
                begin();
                producer.sendOffsetsToTransaction(pending, consumer.groupMetadata());
                producer.commitTransaction();
                open = false;
            }
            committedResent.putAll(resent);
            pending.clear();
            inTransaction = 0;
        }

        private void begin() {
            if (!open) {
                producer.beginTransaction();
                open = true;
            }
        }

        private void abort(RuntimeException cause) {
            if (open) {
                try {
                    producer.abortTransaction();
                } catch (RuntimeException e) {
                    cause.addSuppressed(e);
                }
            }
        }
    }

    /**
     * One per group, so a new run fences a dead one; under the application's prefix
     * ({@code <app>-dlq-resend}, or {@code <app>-dlq-resend-<group>}), which its ACLs may cover.
     */
    private String transactionalId() {
        return app.id + "-dlq-resend" + (group == null ? "" : "-" + group);
    }

    /** Counts of resends as of the last commit (what a failed run did for good). */
    private final Map<String, Long> committedResent = new TreeMap<>();

    private long resentTotal() {
        return committedResent.values().stream().mapToLong(Long::longValue).sum();
    }

    private void report(PrintWriter out, String dlq, String groupId) {
        Table table = new Table("TOPIC", dryRun ? "WOULD RESEND" : "RESENT");
        resent.forEach(table::row);
        table.print(out);
        long total = resent.values().stream().mapToLong(Long::longValue).sum();
        out.println(total + (dryRun ? " would be resent" : " resent") + " from " + dlq + " (group " + groupId + "), "
                + filteredOut + " filtered out, "
                + refused.values().stream().mapToLong(Long::longValue).sum()
                + " refused");
        refused.forEach((why, n) -> out.println("  refused " + n + ": " + why));
    }

    private static Header header(String key, String value) {
        return new RecordHeader(key, value.getBytes(StandardCharsets.UTF_8));
    }
}
