package io.weir.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class ThrottledWarningTest {

    @Test
    void logsAKeyOncePerIntervalAndCountsWhatItLeftOut() {
        Logger logger = (Logger) LoggerFactory.getLogger("test.throttled");
        ListAppender<ILoggingEvent> events = new ListAppender<>();
        events.start();
        logger.addAppender(events);
        AtomicLong now = new AtomicLong();
        ThrottledWarning warning = new ThrottledWarning(logger, TimeUnit.MINUTES.toNanos(1), now::get);
        RuntimeException cause = new RuntimeException("boom");

        for (int i = 0; i < 5; i++) {
            warning.warn("/metrics", "scrape failed", cause);
        }
        warning.warn("/info", "info failed", cause);
        now.addAndGet(TimeUnit.MINUTES.toNanos(1));
        warning.warn("/metrics", "scrape failed", cause);

        assertThat(events.list)
                .extracting(ILoggingEvent::getFormattedMessage)
                .containsExactly(
                        "scrape failed", "info failed", "scrape failed (4 more like it since the last warning)");
        assertThat(events.list)
                .allSatisfy(e -> assertThat(e.getThrowableProxy().getMessage()).isEqualTo("boom"));
    }
}
