package io.weir.cli;

import io.weir.common.internal.Deadline;
import io.weir.config.WeirConfig;
import io.weir.internal.json.Json;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code weir diff}: compares two output topics by key, as changelogs of results: each side is read
 * to its read_committed end (taken when the command starts) and keeps the last value per key
 * (null deletes the key). Keys and values compare as bytes; the deserializers only print them.
 * Exits 0 when the sides are equal, 1 when they differ, like {@code diff(1)}.
 */
@Command(
        name = "diff",
        mixinStandardHelpOptions = true,
        description = "Compares two topics by key (last value per key, tombstones delete): counts of equal, changed,"
                + " only-left and only-right keys, with examples. Exit 0 when equal, 1 when they differ.")
final class DiffCommand implements Callable<Integer> {

    private static final Duration READ_TIMEOUT = Duration.ofMinutes(5);

    /** How keys and values are printed. */
    enum Format {
        string,
        long_,
        bytes;

        static Format of(String text) {
            return switch (text) {
                case "string" -> string;
                case "long" -> long_;
                case "bytes" -> bytes;
                default ->
                    throw new picocli.CommandLine.TypeConversionException(
                            "'" + text + "' is not one of string, long, bytes");
            };
        }

        String show(byte[] b) {
            if (b == null) {
                return "(none)";
            }
            return switch (this) {
                case string -> new String(b, StandardCharsets.UTF_8);
                case long_ ->
                    b.length == 8
                            ? Long.toString(ByteBuffer.wrap(b).getLong())
                            : "0x" + HexFormat.of().formatHex(b);
                case bytes -> "0x" + HexFormat.of().formatHex(b);
            };
        }
    }

    @Option(names = "--left", required = true, paramLabel = "TOPIC", description = "one topic")
    String left;

    @Option(names = "--right", required = true, paramLabel = "TOPIC", description = "the other topic")
    String right;

    @Option(
            names = "--key-deserializer",
            paramLabel = "string|long|bytes",
            converter = FormatConverter.class,
            defaultValue = "string",
            description = "how to print keys (default: ${DEFAULT-VALUE})")
    Format keys;

    @Option(
            names = "--value-deserializer",
            paramLabel = "string|long|bytes",
            converter = FormatConverter.class,
            defaultValue = "string",
            description = "how to print values (default: ${DEFAULT-VALUE})")
    Format values;

    @Option(
            names = "--examples",
            paramLabel = "N",
            defaultValue = "5",
            description = "examples per category (default: ${DEFAULT-VALUE})")
    int examples;

    @Option(names = "--json", description = "print JSON")
    boolean json;

    @Mixin
    ClusterOptions cluster;

    @Spec
    CommandSpec spec;

    static final class FormatConverter implements picocli.CommandLine.ITypeConverter<Format> {
        @Override
        public Format convert(String value) {
            return Format.of(value);
        }
    }

    @Override
    public Integer call() {
        if (examples < 0) {
            throw new picocli.CommandLine.ParameterException(
                    spec.commandLine(), "--examples must be 0 or more, not " + examples);
        }
        WeirConfig config = cluster.config(ClusterOptions.NO_APPLICATION);
        KeyedDiff.Side l = read(config, left);
        KeyedDiff.Side r = read(config, right);
        KeyedDiff.Result result = KeyedDiff.compare(l, r, examples);
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            printJson(out, result);
        } else {
            printText(out, result);
        }
        return result.same() ? Weir.OK : Weir.FAILED;
    }

    /** Reads {@code topic} from the beginning to the read_committed ends taken now. */
    private static KeyedDiff.Side read(WeirConfig config, String topic) {
        KeyedDiff.Side side = new KeyedDiff.Side();
        try (KafkaConsumer<byte[], byte[]> consumer =
                KafkaClients.reader(config, "weir-cli-diff", IsolationLevel.READ_COMMITTED)) {
            List<PartitionInfo> infos = consumer.partitionsFor(topic, ClusterOptions.TIMEOUT);
            if (infos == null || infos.isEmpty()) {
                throw new CommandFailedException("topic '" + topic + "' does not exist");
            }
            List<TopicPartition> partitions = infos.stream()
                    .map(p -> new TopicPartition(topic, p.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = new HashMap<>(consumer.endOffsets(partitions));
            Deadline deadline = Deadline.after(READ_TIMEOUT);
            while (ends.entrySet().stream().anyMatch(e -> consumer.position(e.getKey()) < e.getValue())) {
                if (deadline.expired()) {
                    throw new CommandFailedException("reading '" + topic + "' to its end took more than "
                            + READ_TIMEOUT.toMinutes() + " minutes");
                }
                for (ConsumerRecord<byte[], byte[]> rec : consumer.poll(Duration.ofMillis(200))) {
                    if (rec.offset() < ends.get(new TopicPartition(rec.topic(), rec.partition()))) {
                        side.add(rec.key(), rec.value());
                    }
                }
            }
        } catch (org.apache.kafka.common.errors.TimeoutException e) {
            throw new CommandFailedException("cannot read '" + topic + "': " + e.getMessage(), e);
        }
        return side;
    }

    private void printText(PrintWriter out, KeyedDiff.Result r) {
        out.printf(
                "left:  %s (%d records)%nright: %s (%d records)%n%n", left, r.leftRecords(), right, r.rightRecords());
        Table t = new Table("KEYS", "COUNT");
        t.row("equal", r.equal())
                .row("changed", r.changed())
                .row("only-left", r.onlyLeft())
                .row("only-right", r.onlyRight());
        t.print(out);
        examples(
                out,
                "changed",
                r.changedExamples(),
                e -> keys.show(e.key()) + ": " + values.show(e.left()) + " -> " + values.show(e.right()));
        examples(out, "only-left", r.onlyLeftExamples(), e -> keys.show(e.key()) + ": " + values.show(e.left()));
        examples(out, "only-right", r.onlyRightExamples(), e -> keys.show(e.key()) + ": " + values.show(e.right()));
        out.println();
        out.println(r.same() ? "The topics are equal by key." : "The topics differ.");
    }

    private static void examples(
            PrintWriter out, String what, List<KeyedDiff.Example> list, Function<KeyedDiff.Example, String> show) {
        if (list.isEmpty()) {
            return;
        }
        out.printf("%nExamples, %s:%n", what);
        list.forEach(e -> out.println("  " + show.apply(e)));
    }

    private void printJson(PrintWriter out, KeyedDiff.Result r) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("left", Map.of("topic", left, "records", r.leftRecords()));
        root.put("right", Map.of("topic", right, "records", r.rightRecords()));
        root.put("equal", r.equal());
        root.put("changed", r.changed());
        root.put("onlyLeft", r.onlyLeft());
        root.put("onlyRight", r.onlyRight());
        root.put("same", r.same());
        Map<String, Object> ex = new LinkedHashMap<>();
        ex.put("changed", toJson(r.changedExamples()));
        ex.put("onlyLeft", toJson(r.onlyLeftExamples()));
        ex.put("onlyRight", toJson(r.onlyRightExamples()));
        root.put("examples", ex);
        out.println(Json.pretty(root));
    }

    private List<Object> toJson(List<KeyedDiff.Example> list) {
        List<Object> out = new ArrayList<>();
        for (KeyedDiff.Example e : list) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("key", keys.show(e.key()));
            m.put("left", e.left() == null ? null : values.show(e.left()));
            m.put("right", e.right() == null ? null : values.show(e.right()));
            out.add(m);
        }
        return out;
    }
}
