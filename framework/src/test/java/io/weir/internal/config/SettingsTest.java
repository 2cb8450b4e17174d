package io.weir.internal.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;

class SettingsTest {

    @Test
    void noSettingNameContainsAnUnderscoreSoEveryOneCanComeFromTheEnvironment() {
        List<String> names = new ArrayList<>(Settings.ALL.keySet());
        names.addAll(ConsumerConfig.configNames());
        names.addAll(ProducerConfig.configNames());
        names.addAll(AdminClientConfig.configNames());
        assertThat(names).noneMatch(n -> n.contains("_"));
        assertThat(Settings.ALL.keySet()).allMatch(n -> n.matches("[a-z0-9.]+"));
    }

    @Test
    void everySettingsDefaultParses() {
        Settings.ALL.values().stream().filter(s -> s.defaultValue() != null).forEach(s -> s.parse(s.defaultValue()));
    }

    @Test
    void allListsTheSettingsInDocumentationOrder() {
        assertThat(Settings.ALL.keySet())
                .startsWith("application.id", "bootstrap.servers", "processing.guarantee")
                .endsWith("window.changelog.additional.retention.ms");
    }

    @Test
    void documentedDefaultIsTheDefaultUnlessItIsDerived() {
        assertThat(Settings.POLL_MS.documentedDefault()).isEqualTo("`100`");
        assertThat(Settings.APPLICATION_ID.documentedDefault()).isEqualTo("required");
        assertThat(Settings.DEAD_LETTER_TOPIC.documentedDefault()).isEqualTo("`<application.id>-dlq`");
    }
}
