package io.weir.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class DlqFilterTest {

    private static DeadLetter letter(long timestamp, String... headers) {
        RecordHeaders h = new RecordHeaders();
        for (int i = 0; i < headers.length; i += 2) {
            h.add(new RecordHeader(headers[i], headers[i + 1].getBytes(StandardCharsets.UTF_8)));
        }
        return new DeadLetter(new ConsumerRecord<>(
                "app-dlq", 0, 42L, timestamp, TimestampType.CREATE_TIME, 0, 0, null, null, h, Optional.empty()));
    }

    private static final DeadLetter ORDER = letter(
            1_000,
            "weir.source.topic",
            "orders",
            "weir.error.stage",
            "process",
            "weir.error.class",
            "com.example.Pricing$UnknownCurrency");

    @Test
    void everyGivenOptionMustMatch() {
        DlqFilter f = new DlqFilter();
        assertThat(f.matches(ORDER)).isTrue();
        f.sourceTopic = "orders";
        f.errorClass = "UnknownCurrency";
        f.stage = "PROCESS";
        f.since = Instant.ofEpochMilli(1_000);
        f.until = Instant.ofEpochMilli(1_001);
        assertThat(f.matches(ORDER)).isTrue();
        f.until = Instant.ofEpochMilli(1_000);
        assertThat(f.matches(ORDER)).as("until is exclusive").isFalse();
        f.until = null;
        f.errorClass = "com.example.Pricing$UnknownCurrency";
        assertThat(f.matches(ORDER)).isTrue();
        f.errorClass = "Currency";
        assertThat(f.matches(ORDER)).as("a class name, not a part of one").isFalse();
        f.errorClass = null;
        f.sourceTopic = "payments";
        assertThat(f.matches(ORDER)).isFalse();
    }

    @Test
    void aDeadLetterIsReadThroughItsLastHeaders() {
        DeadLetter again = letter(
                5,
                "weir.resent.count",
                "1",
                "weir.source.topic",
                "orders",
                "weir.source.partition",
                "3",
                "weir.resent.count",
                "2");
        assertThat(again.resentCount()).isEqualTo(2);
        assertThat(again.sourcePartition()).isEqualTo(3);
        assertThat(again.position()).isEqualTo("app-dlq/0/42");
        assertThat(again.errorClass()).isEqualTo("-");
        assertThat(letter(5).sourceTopic()).isNull();
        assertThat(letter(5).resentCount()).isZero();
        assertThat(DeadLetter.weirs(new RecordHeader("weir.error.class", null))).isTrue();
        assertThat(DeadLetter.weirs(new RecordHeader("weir.resent.from", null))).isTrue();
        assertThat(DeadLetter.weirs(new RecordHeader("trace", null))).isFalse();
    }

    @Test
    void timesAreInstantsOrDurationsBeforeNow() {
        DlqFilter.TimeConverter c = new DlqFilter.TimeConverter();
        assertThat(c.convert("2026-01-02T03:04:05Z")).isEqualTo(Instant.parse("2026-01-02T03:04:05Z"));
        assertThat(c.convert("1h")).isBefore(Instant.now());
        assertThatThrownBy(() -> c.convert("earliest"))
                .isInstanceOf(CommandLine.TypeConversionException.class)
                .hasMessageContaining("ISO-8601 instant");
        assertThatThrownBy(() -> c.convert("soon"))
                .isInstanceOf(CommandLine.TypeConversionException.class)
                .hasMessageNotContaining("earliest");
    }

    @Test
    void badOptionsAreUsageErrors() {
        WeirTest.Outcome o = WeirTest.run("dlq", "show", "--app", "a", "-b", "localhost:1", "--limit", "0");
        assertThat(o.code()).isEqualTo(Weir.USAGE);
        assertThat(o.err()).contains("--limit must be at least 1");
        WeirTest.Outcome since = WeirTest.run("dlq", "list", "--app", "a", "-b", "localhost:1", "--since", "later");
        assertThat(since.code()).isEqualTo(Weir.USAGE);
        assertThat(since.err()).contains("--since");
        assertThat(WeirTest.run("dlq").code()).isEqualTo(Weir.USAGE);
    }
}
