package io.weir.cli;

import java.time.Clock;
import java.time.Instant;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * Which dead letters a {@code weir dlq} command looks at ({@code @Mixin}); every given option must
 * match. Times are the records' timestamps, which a dead letter keeps from its input record.
 */
final class DlqFilter {

    @Option(
            names = "--source-topic",
            paramLabel = "TOPIC",
            description = "only records that failed on this input topic")
    String sourceTopic;

    @Option(
            names = "--error-class",
            paramLabel = "CLASS",
            description = "only records that failed with this exception class (full or simple name)")
    String errorClass;

    @Option(
            names = "--stage",
            paramLabel = "STAGE",
            description = "only records that failed at this stage: deserialize, timestamp, process, call, produce")
    String stage;

    @Option(
            names = "--since",
            paramLabel = "TIME",
            converter = TimeConverter.class,
            description = "only records with a timestamp at or after TIME: an ISO-8601 instant or a duration before"
                    + " now (PT1H, 90m, 2d)")
    Instant since;

    @Option(
            names = "--until",
            paramLabel = "TIME",
            converter = TimeConverter.class,
            description = "only records with a timestamp before TIME (as --since)")
    Instant until;

    boolean matches(DeadLetter d) {
        long ts = d.record().timestamp();
        return (sourceTopic == null || sourceTopic.equals(d.sourceTopic()))
                && (errorClass == null || classMatches(d.errorClass()))
                && (stage == null || stage.equalsIgnoreCase(d.stage()))
                && (since == null || ts >= since.toEpochMilli())
                && (until == null || ts < until.toEpochMilli());
    }

    private boolean classMatches(String name) {
        return errorClass.equals(name) || name.endsWith("." + errorClass) || name.endsWith("$" + errorClass);
    }

    /** A time as {@code weir reset --to} takes it, without earliest and latest. */
    static final class TimeConverter implements CommandLine.ITypeConverter<Instant> {
        @Override
        public Instant convert(String value) {
            ResetTarget t;
            try {
                t = ResetTarget.parse(value, Clock.systemUTC());
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage().replace("earliest, latest, ", ""));
            }
            if (t instanceof ResetTarget.At at) {
                return at.time();
            }
            throw new CommandLine.TypeConversionException(
                    "'" + value + "' is not an ISO-8601 instant or a duration before now (PT1H, 90m, 2d)");
        }
    }
}
