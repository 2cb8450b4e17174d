package io.weir.cli;

import io.weir.config.WeirConfig;
import io.weir.internal.json.Json;
import java.io.PrintWriter;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import org.apache.kafka.common.header.Header;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code weir dlq list|show|resend}: an application's dead-letter topic ({@code dead.letter.topic}),
 * read_committed: counts, the records themselves, and sending them back to their input topics once
 * the cause is fixed ({@link DlqResend}).
 */
@Command(
        name = "dlq",
        description = "Inspects an application's dead letters and sends them back to their input topics.",
        mixinStandardHelpOptions = true,
        subcommands = {DlqCommand.ListCommand.class, DlqCommand.Show.class, DlqResend.class})
final class DlqCommand extends CommandGroup {

    /** What every subcommand takes. */
    abstract static class Base implements Callable<Integer> {
        @Mixin
        AppOptions app;

        @Mixin
        DlqFilter filter;
    }

    @Command(
            name = "list",
            mixinStandardHelpOptions = true,
            description = "Counts the dead letters per source topic, stage and error class.")
    static final class ListCommand extends Base {
        @Option(names = "--json", description = "print JSON")
        boolean json;

        @Override
        public Integer call() {
            WeirConfig config = app.config();
            Map<List<String>, Long> counts =
                    new TreeMap<>((a, b) -> String.join("\0", a).compareTo(String.join("\0", b)));
            long[] total = {0};
            DlqReader.read(
                    config,
                    config.deadLetterTopic(),
                    d -> {
                        if (filter.matches(d)) {
                            String source = d.sourceTopic() == null ? "-" : d.sourceTopic();
                            counts.merge(List.of(source, d.stage(), d.errorClass()), 1L, Long::sum);
                            total[0]++;
                        }
                    },
                    () -> true);
            PrintWriter out = app.out();
            if (json) {
                List<Object> rows = new ArrayList<>();
                counts.forEach((k, n) -> {
                    Map<String, Object> row = new LinkedHashMap<>();
                    row.put("sourceTopic", k.get(0));
                    row.put("stage", k.get(1));
                    row.put("errorClass", k.get(2));
                    row.put("count", n);
                    rows.add(row);
                });
                out.println(Json.pretty(Map.of("topic", config.deadLetterTopic(), "total", total[0], "groups", rows)));
                return Weir.OK;
            }
            Table table = new Table("SOURCE TOPIC", "STAGE", "ERROR CLASS", "COUNT");
            counts.forEach((k, n) -> table.row(k.get(0), k.get(1), k.get(2), n));
            table.print(out);
            out.println(total[0] + " dead letters in " + config.deadLetterTopic());
            return Weir.OK;
        }
    }

    @Command(
            name = "show",
            mixinStandardHelpOptions = true,
            description = "Prints dead letters, oldest first per partition: where they came from, the error, their"
                    + " headers, key and value (UTF-8 text, else base64).")
    static final class Show extends Base {
        @Option(
                names = "--limit",
                paramLabel = "N",
                defaultValue = "20",
                description = "print at most N records (default: ${DEFAULT-VALUE})")
        int limit;

        @Option(names = "--stacktrace", description = "print the error's stack trace too")
        boolean stacktrace;

        @Override
        public Integer call() {
            if (limit < 1) {
                throw app.usage("--limit must be at least 1, not " + limit);
            }
            WeirConfig config = app.config();
            PrintWriter out = app.out();
            int[] shown = {0};
            DlqReader.read(
                    config,
                    config.deadLetterTopic(),
                    d -> {
                        if (filter.matches(d)) {
                            print(out, d);
                            shown[0]++;
                        }
                    },
                    () -> shown[0] < limit);
            out.println(shown[0] + " shown" + (shown[0] == limit ? " (--limit " + limit + ")" : ""));
            return Weir.OK;
        }

        private void print(PrintWriter out, DeadLetter d) {
            out.println(d.position() + "  " + Instant.ofEpochMilli(d.record().timestamp()));
            out.println("  source:  " + (d.sourceTopic() == null ? "-" : d.sourceTopic()) + "-" + d.sourcePartition()
                    + "@" + d.sourceOffset());
            out.println("  error:   " + d.stage() + ": " + d.errorClass() + ": " + d.errorMessage());
            for (Header h : d.record().headers()) {
                if (!h.key().equals(io.weir.internal.task.DeadLetters.ERROR_STACK) || stacktrace) {
                    out.println("  header:  " + h.key() + "=" + text(h.value()));
                }
            }
            out.println("  key:     " + text(d.record().key()));
            out.println("  value:   " + text(d.record().value()));
        }

        /** UTF-8 text if the bytes are valid UTF-8, else base64 (marked). */
        static String text(byte[] bytes) {
            if (bytes == null) {
                return "null";
            }
            try {
                return StandardCharsets.UTF_8
                        .newDecoder()
                        .onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT)
                        .decode(java.nio.ByteBuffer.wrap(bytes))
                        .toString();
            } catch (CharacterCodingException e) {
                return "base64:" + Base64.getEncoder().encodeToString(bytes);
            }
        }
    }
}
