package io.weir.internal.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.errors.ConfigException;
import io.weir.sink.DeliveryGuarantee;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SettingValuesTest {

    private static final Setting<Integer> BASE = new Setting<>("base", "2", Setting.intAtLeast(0), "a base");
    private static final Setting<Integer> DOUBLED = Setting.derived(
            "doubled", "twice `base`", Setting.intAtLeast(0), v -> 2 * v.get(BASE), "derived from base");
    private static final Setting<Integer> LIMIT = new Setting<>("limit", "10", Setting.intAtLeast(0), "a limit");
    private static final Setting<Optional<String>> LABEL =
            Setting.optional("label", "none", Setting.nonEmpty(), "a label");
    private static final SettingCheck DOUBLED_UNDER_LIMIT = new SettingCheck(
            LIMIT,
            v -> v.get(DOUBLED) <= v.get(LIMIT),
            v -> v.get(LIMIT) + " is below doubled (" + v.get(DOUBLED) + "); allowed: at least doubled");

    private static SettingValues resolve(Map<String, String> raw) {
        return SettingValues.resolve(List.of(BASE, DOUBLED, LIMIT, LABEL), List.of(DOUBLED_UNDER_LIMIT), raw);
    }

    @Test
    void derivedDefaultIsComputedFromEarlierSettingsAndAGivenValueWins() {
        assertThat(resolve(Map.of()).get(DOUBLED)).isEqualTo(4);
        assertThat(resolve(Map.of("base", "3")).get(DOUBLED)).isEqualTo(6);
        assertThat(resolve(Map.of("base", "3", "doubled", "1")).get(DOUBLED)).isEqualTo(1);
    }

    @Test
    void givenValueOfADerivedSettingIsParsedAndValidated() {
        assertThatThrownBy(() -> resolve(Map.of("doubled", "-1")))
                .isInstanceOf(ConfigException.class)
                .hasMessage("invalid setting 'doubled': -1 is out of range;" + " allowed: an integer >= 0");
    }

    @Test
    void optionalSettingIsEmptyUnlessSet() {
        assertThat(resolve(Map.of()).get(LABEL)).isEmpty();
        assertThat(resolve(Map.of("label", " x ")).get(LABEL)).contains("x");
        assertThatThrownBy(() -> resolve(Map.of("label", "")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'label'");
    }

    @Test
    void checkFailsNamingItsSettingTheValueAndWhatIsAllowed() {
        assertThatThrownBy(() -> resolve(Map.of("base", "6")))
                .isInstanceOf(ConfigException.class)
                .hasMessage("invalid setting 'limit': 10 is below doubled (12); allowed: at least doubled")
                .extracting(e -> ((ConfigException) e).setting())
                .isEqualTo("limit");
    }

    @Test
    void checkRunsAsSoonAsItsSettingHasItsValueSoLaterSettingsAreNotReportedFirst() {
        assertThatThrownBy(() -> resolve(Map.of("base", "6", "label", "")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'limit'");
    }

    @Test
    void derivedDefaultOrCheckMayReadOnlySettingsDeclaredBeforeIt() {
        Setting<Integer> early = Setting.derived(
                "early", "from late", Setting.intAtLeast(0), v -> v.get(LIMIT), "reads a later setting");
        assertThatThrownBy(() -> SettingValues.resolve(List.of(early, LIMIT), List.of(), Map.of()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("limit is read before");
        SettingCheck onBase = new SettingCheck(BASE, v -> v.get(LIMIT) > 0, v -> "never");
        assertThatThrownBy(() -> SettingValues.resolve(List.of(BASE, LIMIT), List.of(onBase), Map.of()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("limit is read before");
    }

    @Test
    void checkOnASettingThatIsNotDeclaredIsRefused() {
        assertThatThrownBy(() -> SettingValues.resolve(List.of(BASE), List.of(DOUBLED_UNDER_LIMIT), Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("limit");
    }

    @Test
    void settingCannotHaveBothADefaultAndADerivedDefault() {
        assertThatThrownBy(() -> new Setting<>("both", "1", "`1`", Setting.intAtLeast(0), "d", v -> 1))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void weirDerivesCommitIntervalFromTheGuaranteeAndTopicsFromTheApplicationId() {
        SettingValues eos = SettingValues.resolve(Map.of("application.id", "app", "bootstrap.servers", "b:1"));
        assertThat(eos.get(Settings.COMMIT_INTERVAL_MS)).isEqualTo(Duration.ofMillis(100));
        assertThat(eos.get(Settings.DEAD_LETTER_TOPIC)).isEqualTo("app-dlq");
        assertThat(eos.get(TimeSettings.LATE_RECORDS_TOPIC)).isEqualTo("app-late");
        assertThat(eos.get(Settings.INSTANCE_ID)).isEmpty();
        SettingValues alo = SettingValues.resolve(
                Map.of("application.id", "app", "bootstrap.servers", "b:1", "processing.guarantee", "at_least_once"));
        assertThat(alo.get(Settings.COMMIT_INTERVAL_MS)).isEqualTo(Duration.ofMillis(1000));
        assertThat(alo.get(Settings.PROCESSING_GUARANTEE)).isEqualTo(DeliveryGuarantee.AT_LEAST_ONCE);
        assertThat(Settings.COMMIT_INTERVAL_MS.documentedDefault())
                .isEqualTo("`100` under `exactly_once`, else `1000`");
        assertThat(TimeSettings.LATE_RECORDS_TOPIC.documentedDefault()).isEqualTo("`<application.id>-late`");
    }

    @Test
    void weirChecksKeepTheirMessages() {
        Map<String, String> valid = Map.of("application.id", "app", "bootstrap.servers", "b:1");
        assertThatThrownBy(() -> SettingValues.resolve(with(valid, "bounded.until", "2024-05-01T00:00:00Z")))
                .isInstanceOf(ConfigException.class)
                .hasMessage("invalid setting 'bounded.until': applies only to"
                        + " bounded runs, but run.mode is streaming; set run.mode=bounded, or leave bounded.until"
                        + " empty");
        assertThatThrownBy(() -> SettingValues.resolve(with(valid, "failure.detection.ms", "500")))
                .isInstanceOf(ConfigException.class)
                .hasMessage("invalid setting 'failure.detection.ms': 500 is too"
                        + " short to tell a dead instance from a slow one; allowed: 0 (off) or at least 1000");
        assertThat(SettingValues.resolve(with(valid, "failure.detection.ms", "0"))
                        .get(Settings.FAILURE_DETECTION_MS))
                .isZero();
        assertThatThrownBy(() -> SettingValues.resolve(with(valid, "processing.guarantee", "EXACTLY_ONCE_V2")))
                .isInstanceOf(ConfigException.class)
                .hasMessage("invalid setting 'processing.guarantee':"
                        + " 'EXACTLY_ONCE_V2' is not a value: use exactly_once (Weir's exactly_once is Kafka's EOS v2);"
                        + " allowed: exactly_once, at_least_once, at_most_once, none");
        assertThatThrownBy(() -> SettingValues.resolve(with(valid, "processing.guarantee", "at-most-once")))
                .isInstanceOf(ConfigException.class)
                .hasMessage("invalid setting 'processing.guarantee':"
                        + " 'at-most-once' is spelled at_most_once (values use underscores);"
                        + " allowed: exactly_once, at_least_once, at_most_once, none");
    }

    @Test
    void everyGuaranteeIsSpelledInConfigurationAsTheSettingParsesIt() {
        for (DeliveryGuarantee g : DeliveryGuarantee.values()) {
            assertThat(Settings.PROCESSING_GUARANTEE.parse(g.configValue())).isEqualTo(g);
            assertThat(g.configValue()).isEqualTo(Setting.spelling(g));
        }
    }

    private static Map<String, String> with(Map<String, String> base, String name, String value) {
        Map<String, String> m = new HashMap<>(base);
        m.put(name, value);
        return m;
    }
}
