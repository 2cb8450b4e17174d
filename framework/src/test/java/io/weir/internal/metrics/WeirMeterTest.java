package io.weir.internal.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.Tags;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.weir.testing.PrometheusText;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The catalogue is the one list of Weir's meters: its Prometheus names are the ones Micrometer's
 * Prometheus registry really exports, every entry is registered by the code through its builder,
 * and no meter name is spelled anywhere else in the main code.
 */
class WeirMeterTest {

    /** The main sources of every module, from the framework module's directory. */
    private static final Path REPOSITORY = Path.of("..");

    private static final Path CATALOGUE = Path.of("src/main/java/io/weir/internal/metrics/WeirMeter.java");

    /** A registration through an entry's builder, for example {@code WeirMeter.RECORDS_IN.counter()}. */
    private static final Pattern REGISTRATION =
            Pattern.compile("WeirMeter\\s*\\.\\s*([A-Z_]+)\\s*\\.\\s*(counter|timer|gauge)\\(");

    @Test
    void prometheusSeriesAreTheOnesMicrometersPrometheusRegistryExports() {
        PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        for (WeirMeter m : WeirMeter.values()) {
            Tags tags = Tags.of(m.tags().stream()
                    .map(k -> io.micrometer.core.instrument.Tag.of(k, "x"))
                    .toList());
            switch (m.kind()) {
                case COUNTER -> m.counter().tags(tags).register(prometheus).increment();
                case TIMER -> m.timer().tags(tags).register(prometheus).record(Duration.ofMillis(3));
                case GAUGE -> m.gauge(() -> 1).tags(tags).register(prometheus);
            }
        }
        Set<String> scraped = PrometheusText.parse(prometheus.scrape()).stream()
                .map(PrometheusText.Sample::name)
                .collect(Collectors.toCollection(TreeSet::new));
        assertThat(scraped).isEqualTo(new TreeSet<>(WeirMeter.allPrometheusSeries()));
    }

    @Test
    void seriesFollowMicrometersPrometheusNaming() {
        assertThat(WeirMeter.RECORDS_IN.prometheusSeries()).containsExactly("weir_records_in_total");
        assertThat(WeirMeter.CONSUMER_LAG.prometheusSeries()).containsExactly("weir_consumer_lag_records");
        assertThat(WeirMeter.COMMIT_LATENCY.prometheusSeries())
                .containsExactly(
                        "weir_commit_latency_seconds_count",
                        "weir_commit_latency_seconds_sum",
                        "weir_commit_latency_seconds_max");
        assertThat(WeirMeter.STANDBY_LAG_SECONDS.prometheusSeries()).containsExactly("weir_standby_lag_seconds");
    }

    @Test
    void namesAreUniqueAndWeirs() {
        List<String> names =
                Stream.of(WeirMeter.values()).map(WeirMeter::meterName).toList();
        assertThat(names).doesNotHaveDuplicates().allMatch(n -> n.startsWith("weir."));
        assertThat(WeirMeter.allPrometheusSeries()).doesNotHaveDuplicates();
        assertThat(WeirMeter.values()).allSatisfy(m -> assertThat(m.tags()).startsWith("application", "instance"));
    }

    @Test
    void builderOfAnotherKindFails() {
        assertThatThrownBy(() -> WeirMeter.RECORDS_IN.timer())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("weir.records.in is a COUNTER");
    }

    @Test
    void everyEntryIsRegisteredByTheMainCode() {
        Set<WeirMeter> registered = EnumSet.noneOf(WeirMeter.class);
        for (Path file : mainSources()) {
            if (!file.endsWith(CATALOGUE)) {
                Matcher m = REGISTRATION.matcher(read(file));
                while (m.find()) {
                    registered.add(WeirMeter.valueOf(m.group(1)));
                }
            }
        }
        assertThat(EnumSet.complementOf(EnumSet.copyOf(registered)))
                .as("catalogue entries no main code registers: remove them")
                .isEmpty();
    }

    @Test
    void noMainCodeSpellsAMeterNameOutsideTheCatalogue() {
        List<String> spelled = new ArrayList<>();
        for (Path file : mainSources()) {
            if (!file.endsWith(CATALOGUE)) {
                String text = read(file);
                for (WeirMeter m : WeirMeter.values()) {
                    if (text.contains("\"" + m.meterName() + "\"")) {
                        spelled.add(file + ": \"" + m.meterName() + "\" (use WeirMeter." + m.name() + ")");
                    }
                }
            }
        }
        assertThat(spelled).isEmpty();
    }

    private static List<Path> mainSources() {
        try (Stream<Path> modules = Files.list(REPOSITORY)) {
            List<Path> files = new ArrayList<>();
            for (Path main : modules.map(d -> d.resolve("src/main/java"))
                    .filter(Files::isDirectory)
                    .toList()) {
                try (Stream<Path> walk = Files.walk(main)) {
                    walk.filter(f -> f.toString().endsWith(".java")).forEach(files::add);
                }
            }
            assertThat(files)
                    .as("main sources under " + REPOSITORY.toAbsolutePath())
                    .isNotEmpty();
            return files;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
