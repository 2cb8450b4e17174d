package io.weir.rules;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.ArchConfiguration;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import io.weir.rules.fixture.ClientMaker;
import io.weir.rules.fixture.Json;
import io.weir.rules.fixture.KafkaClients;
import io.weir.rules.fixture.MapperMaker;
import io.weir.rules.fixture.Sleeper;
import java.util.List;
import org.junit.jupiter.api.Test;

class ForbiddenCallsTest {

    @Test
    void findsEverySleepWithItsLine() {
        assertThat(lines(Sleeper.class))
                .containsExactly(
                        "R2 io.weir.rules.fixture.Sleeper (Sleeper.java:9): Thread.sleep in pause",
                        "R2 io.weir.rules.fixture.Sleeper (Sleeper.java:15): TimeUnit.sleep in loop");
    }

    @Test
    void allowsSleepsOnlyInWorkerAndPoll() {
        ForbiddenCalls.Call sleeps = ForbiddenCalls.CALLS.get(0);
        assertThat(sleeps.rule()).isEqualTo(Rule.R2);
        assertThat(sleeps.allowed())
                .accepts("io.weir.common.internal.Worker", "io.weir.common.internal.Poll")
                .rejects("io.weir.testkit.Poll", "io.weir.common.internal.Deadline");
    }

    @Test
    void findsMappersMadeOutsideJson() {
        assertThat(lines(MapperMaker.class))
                .containsExactly(
                        "R3 io.weir.rules.fixture.MapperMaker (MapperMaker.java:10): new ObjectMapper in plain",
                        "R3 io.weir.rules.fixture.MapperMaker (MapperMaker.java:14): JsonMapper.builder in built");
    }

    @Test
    void allowsMappersInJsonAndItsNestedClasses() {
        assertThat(lines(Json.class, Json.Pretty.class)).isEmpty();
    }

    @Test
    void allowsOneClassNamedJsonPerModule() {
        assertThat(lines(Json.class, io.weir.rules.fixture.other.Json.class))
                .containsExactly("R3 the module: 2 classes named Json, one is allowed: "
                        + "[io.weir.rules.fixture.Json, io.weir.rules.fixture.other.Json]");
    }

    @Test
    void findsKafkaClientsCreatedOutsideKafkaClients() {
        assertThat(lines(ClientMaker.class))
                .containsExactly(
                        "R4 io.weir.rules.fixture.ClientMaker (ClientMaker.java:15): new KafkaConsumer in create",
                        "R4 io.weir.rules.fixture.ClientMaker (ClientMaker.java:16): new KafkaProducer in create",
                        "R4 io.weir.rules.fixture.ClientMaker (ClientMaker.java:17): Admin.create in create",
                        "R4 io.weir.rules.fixture.ClientMaker (ClientMaker.java:18): AdminClient.create in create",
                        "R4 io.weir.rules.fixture.ClientMaker (ClientMaker.java:22): new KafkaProducer in producers");
    }

    @Test
    void allowsKafkaClientsInTheFactoryAndItsNestedClasses() {
        assertThat(lines(KafkaClients.class, KafkaClients.Readers.class)).isEmpty();
    }

    private static List<String> lines(Class<?>... fixtures) {
        // As CodeRules imports: the called classes known by name only (resolving them takes seconds).
        JavaClasses classes = ArchConfiguration.withThreadLocalScope(config -> {
            config.setResolveMissingDependenciesFromClassPath(false);
            return new ClassFileImporter().importClasses(fixtures);
        });
        return ForbiddenCalls.find(classes).stream()
                .sorted()
                .map(Violation::toString)
                .toList();
    }
}
