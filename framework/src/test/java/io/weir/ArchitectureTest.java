package io.weir;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The map of the code, enforced: which room may use which, and where the public API ends. The
 * rooms are the packages of the modules {@code common}, {@code state-store},
 * {@code transactional-sink} and {@code framework}; each {@code package-info.java} says what its
 * room holds. Chosen over JPMS {@code module-info} exports: applications run on the class path, the
 * CLI and the benchmarks use internals on purpose (qualified exports for each), unit tests live in
 * the packages they test, and exports could not say which internal room may use which.
 */
class ArchitectureTest {

    /**
     * The internal rooms, the root and the test driver (which runs the root's {@code Topology}),
     * lowest first: a room may use the rooms before it, never one after it, and never one of the
     * same rank. The public leaves ({@link #PUBLIC_LEAVES}) come before all of them. The commit
     * ranks low: tasks and stores write into its open transaction, and its committer knows them
     * only as {@code CommitUnit}s. The public query client ({@code io.weir.query}) is a room, not a
     * leaf: it reads the instances' answers through the framework's one JSON mapper
     * ({@code internal.json}) instead of a mapper of its own, so it ranks just above it.
     */
    private static final List<List<String>> RANKS = List.of(
            List.of("io.weir.internal.config", "io.weir.internal.metrics"),
            List.of("io.weir.config"),
            List.of("io.weir.internal.json"),
            List.of("io.weir.query"),
            List.of("io.weir.internal.topology"),
            List.of("io.weir.internal.commit"),
            List.of(
                    "io.weir.internal.state",
                    "io.weir.internal.assign",
                    "io.weir.internal.http",
                    "io.weir.internal.kubernetes",
                    "io.weir.internal.time",
                    "io.weir.internal.tracing"),
            List.of(
                    "io.weir.internal.cluster",
                    "io.weir.internal.cluster.topics",
                    "io.weir.internal.cluster.access",
                    "io.weir.internal.query"),
            List.of("io.weir.internal.task", "io.weir.internal.state.restore"),
            List.of(
                    "io.weir.internal.state.standby",
                    "io.weir.internal.state.global",
                    "io.weir.internal.operator.stateless",
                    "io.weir.internal.operator.async"),
            List.of("io.weir.internal.state.thread", "io.weir.internal.operator.table"),
            List.of("io.weir.internal.operator.aggregate"),
            List.of("io.weir.internal.operator.window"),
            List.of("io.weir.internal.operator.join"),
            List.of("io.weir.internal.dsl", "io.weir.internal.savepoint"),
            List.of("io.weir.internal.thread"),
            List.of("io.weir.internal.bounded", "io.weir.internal.supervision", "io.weir.testdriver.internal"),
            List.of("io.weir"),
            List.of("io.weir.testdriver"));

    /**
     * The leaves, below every room of the framework: the public packages of values and interfaces,
     * and the modules the framework builds on (their own internals included, such as
     * {@code io.weir.common.internal}'s waits on Kafka and {@code io.weir.state.internal}'s bytes
     * stores). Every room may use them; they use no room of the framework.
     */
    private static final List<String> PUBLIC_LEAVES = List.of(
            "io.weir.errors",
            "io.weir.common",
            "io.weir.common.internal",
            "io.weir.state",
            "io.weir.sink",
            "io.weir.serde",
            "io.weir.time",
            "io.weir.processor",
            "io.weir.dsl",
            "io.weir.logging");

    /**
     * The packages applications program against. The state store's engine ({@code io.weir.state.rocksdb},
     * {@code .memory}, {@code .changelog}, {@code .internal}) and the commit protocol's internals
     * ({@code io.weir.sink.internal}) are the framework's, not the applications': they may pass the
     * byte-level types of {@code io.weir.state.internal} between them.
     */
    private static final List<String> APPLICATION_API = List.of(
            "io.weir",
            "io.weir.testdriver",
            "io.weir.config",
            "io.weir.dsl",
            "io.weir.processor",
            "io.weir.serde",
            "io.weir.time",
            "io.weir.state",
            "io.weir.errors",
            "io.weir.common",
            "io.weir.logging",
            "io.weir.sink",
            "io.weir.query");

    /** The modules below the framework, which must not know it. */
    private static final List<String> BELOW_FRAMEWORK =
            List.of("io.weir.errors", "io.weir.common", "io.weir.state", "io.weir.sink");

    private static final JavaClasses WEIR = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(location -> !location.contains("/io/weir/testkit/"))
            .withImportOption(location -> !location.contains("/io/weir/rules/")) // CodeRulesTest's rules
            .importPackages("io.weir");

    @Test
    void everyRoomIsKnownToTheMap() {
        List<String> unknown = WEIR.stream()
                .map(JavaClass::getPackageName)
                .distinct()
                .filter(p -> room(p).isEmpty())
                .sorted()
                .toList();
        assertThat(unknown)
                .as("packages without a room in ArchitectureTest.RANKS or PUBLIC_LEAVES")
                .isEmpty();
    }

    @Test
    void publicPackagesDoNotDependOnInternals() {
        check(noClasses()
                .that()
                .resideInAnyPackage(
                        "io.weir.dsl..",
                        "io.weir.processor..",
                        "io.weir.serde..",
                        "io.weir.time..",
                        "io.weir.errors..",
                        "io.weir.logging..")
                .or()
                .resideInAnyPackage("io.weir.state", "io.weir.sink", "io.weir.common")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("..internal.."));
    }

    @Test
    void stateStoreTransactionalSinkAndCommonDoNotKnowTheFramework() {
        check(classes()
                .that()
                .resideInAnyPackage(packagesOf(BELOW_FRAMEWORK))
                .should()
                .onlyDependOnClassesThat(DescribedPredicate.describe(
                        "outside Weir, or in " + BELOW_FRAMEWORK,
                        (JavaClass c) -> !c.getPackageName().startsWith("io.weir")
                                || BELOW_FRAMEWORK.stream().anyMatch(p -> inPackage(c.getPackageName(), p)))));
    }

    @Test
    void roomsUseOnlyTheRoomsBelowThem() {
        check(classes()
                .that()
                .resideInAnyPackage("io.weir", "io.weir.config", "io.weir.query", "io.weir.internal..")
                .should(new ArchCondition<JavaClass>("use only the rooms below their own") {
                    @Override
                    public void check(JavaClass origin, ConditionEvents events) {
                        int own = rank(origin.getPackageName());
                        for (Dependency d : origin.getDirectDependenciesFromSelf()) {
                            String target = d.getTargetClass().getPackageName();
                            if (!target.startsWith("io.weir")
                                    || room(target).equals(room(origin.getPackageName()))
                                    || rank(target) < own) {
                                continue;
                            }
                            events.add(SimpleConditionEvent.violated(
                                    d,
                                    d.getDescription() + ": "
                                            + room(target).orElse(target) + " is not below "
                                            + room(origin.getPackageName()).orElseThrow()));
                        }
                    }
                }));
    }

    @Test
    void packagesFormNoCycles() {
        check(slices().assignedFrom(new SliceAssignment() {
                    @Override
                    public SliceIdentifier getIdentifierOf(JavaClass c) {
                        return SliceIdentifier.of(c.getPackageName());
                    }

                    @Override
                    public String getDescription() {
                        return "packages of Weir";
                    }
                })
                .should()
                .beFreeOfCycles());
    }

    /**
     * The classes that have Kafka clients made ({@code KafkaClients}, the one class that creates
     * them), each from settings that {@code ClientSecurityTest} and
     * {@code SavepointClientsSecurityTest} check for the security settings ({@code ClientConfigs},
     * {@code SavepointClients}, or {@code WeirConfig}'s admin settings). A new class that has a
     * client made fails here: build its settings from {@code ClientConfigs}, then add it to the list.
     */
    private static final List<String> CLIENT_MAKERS = List.of(
            "io.weir.RunningInstance",
            "io.weir.internal.supervision.LivenessWatch",
            "io.weir.internal.supervision.TransactionFence",
            "io.weir.internal.thread.StreamThread",
            "io.weir.internal.topology.TopologyRecord",
            "io.weir.internal.savepoint.SavepointClients",
            "io.weir.internal.savepoint.SavepointControl",
            "io.weir.internal.savepoint.SavepointRestore",
            "io.weir.internal.state.global.GlobalThread",
            "io.weir.internal.state.restore.StateConsumers");

    private static final String KAFKA_CLIENTS = "io.weir.internal.config.KafkaClients";

    @Test
    void kafkaClientsAreCreatedOnlyByKafkaClientsForClassesWhoseSecuritySettingsAreChecked() {
        List<String> creators = new ArrayList<>();
        List<String> makers = new ArrayList<>();
        for (JavaClass c : WEIR) {
            boolean creates = c.getConstructorCallsFromSelf().stream()
                            .anyMatch(k -> List.of(
                                            "org.apache.kafka.clients.consumer.KafkaConsumer",
                                            "org.apache.kafka.clients.producer.KafkaProducer")
                                    .contains(k.getTargetOwner().getName()))
                    || c.getMethodCallsFromSelf().stream()
                            .anyMatch(m -> m.getTargetOwner().getName().startsWith("org.apache.kafka.clients.admin.")
                                    && m.getName().equals("create"));
            boolean asks = c.getMethodCallsFromSelf().stream()
                    .anyMatch(m -> m.getTargetOwner().getName().equals(KAFKA_CLIENTS)
                            && List.of("consumer", "producer", "admin").contains(m.getName()));
            String top = c.getName().replaceAll("\\$.*", "");
            if (creates && !top.equals(KAFKA_CLIENTS)) {
                creators.add(c.getName());
            }
            if (asks && !CLIENT_MAKERS.contains(top)) {
                makers.add(c.getName());
            }
        }
        assertThat(creators)
                .as("classes creating Kafka clients themselves instead of through KafkaClients")
                .isEmpty();
        assertThat(makers)
                .as("classes having Kafka clients made outside ArchitectureTest.CLIENT_MAKERS")
                .isEmpty();
    }

    /** No public method, constructor or field of a public type of the application API names an internal type. */
    @Test
    void thePublicApiExposesNoInternalType() {
        List<String> leaks = new ArrayList<>();
        for (JavaClass c : WEIR) {
            if (!APPLICATION_API.contains(c.getPackageName()) || !publicChain(c.reflect())) {
                continue;
            }
            Class<?> type = c.reflect();
            for (Method m : type.getDeclaredMethods()) {
                if (visible(m.getModifiers()) && !m.isSynthetic() && !m.isBridge()) {
                    leaks(m, m.getGenericReturnType(), leaks);
                    exposed(m, leaks);
                }
            }
            for (Constructor<?> k : type.getDeclaredConstructors()) {
                if (visible(k.getModifiers()) && !k.isSynthetic()) {
                    exposed(k, leaks);
                }
            }
            for (Field f : type.getDeclaredFields()) {
                if (visible(f.getModifiers()) && !f.isSynthetic()) {
                    leaks(f, f.getGenericType(), leaks);
                }
            }
            Arrays.stream(type.getGenericInterfaces()).forEach(i -> leaks(type, i, leaks));
            if (type.getGenericSuperclass() != null) {
                leaks(type, type.getGenericSuperclass(), leaks);
            }
        }
        assertThat(leaks).as("public signatures that name internal types").isEmpty();
    }

    private static void exposed(Executable e, List<String> leaks) {
        Arrays.stream(e.getGenericParameterTypes()).forEach(t -> leaks(e, t, leaks));
        Arrays.stream(e.getGenericExceptionTypes()).forEach(t -> leaks(e, t, leaks));
    }

    private static void leaks(Object where, Type type, List<String> leaks) {
        if (type instanceof Class<?> c) {
            Class<?> raw = c.isArray() ? c.getComponentType() : c;
            if (raw.getPackageName().contains(".internal")) {
                leaks.add(where + " names " + raw.getName());
            }
        } else if (type instanceof ParameterizedType p) {
            leaks(where, p.getRawType(), leaks);
            Arrays.stream(p.getActualTypeArguments()).forEach(a -> leaks(where, a, leaks));
        } else if (type instanceof WildcardType w) {
            Arrays.stream(w.getUpperBounds()).forEach(b -> leaks(where, b, leaks));
            Arrays.stream(w.getLowerBounds()).forEach(b -> leaks(where, b, leaks));
        } else if (type instanceof GenericArrayType a) {
            leaks(where, a.getGenericComponentType(), leaks);
        } else if (type instanceof TypeVariable<?> v) {
            Arrays.stream(v.getBounds()).forEach(b -> leaks(where, b, leaks));
        }
    }

    private static boolean visible(int modifiers) {
        return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
    }

    private static boolean publicChain(Class<?> type) {
        for (Class<?> c = type; c != null; c = c.getEnclosingClass()) {
            if (!Modifier.isPublic(c.getModifiers()) || c.isAnonymousClass() || c.isLocalClass()) {
                return false;
            }
        }
        return true;
    }

    // ---- the map -------------------------------------------------------------------------------

    /** The room a package belongs to: the longest known package it is, or is inside of. */
    private static Optional<String> room(String pkg) {
        return allRooms().stream().filter(r -> inPackage(pkg, r)).max((a, b) -> a.length() - b.length());
    }

    /** 0 for the public leaves, else 1 + the index of the room's rank in {@link #RANKS}. */
    private static int rank(String pkg) {
        String r = room(pkg).orElseThrow(() -> new IllegalStateException("no room for " + pkg));
        if (PUBLIC_LEAVES.contains(r)) {
            return 0;
        }
        for (int i = 0; i < RANKS.size(); i++) {
            if (RANKS.get(i).contains(r)) {
                return i + 1;
            }
        }
        throw new IllegalStateException(r);
    }

    private static List<String> allRooms() {
        List<String> all = new ArrayList<>(PUBLIC_LEAVES);
        RANKS.forEach(all::addAll);
        return all;
    }

    /** True if {@code pkg} is {@code room} or a package inside it; the root room holds only itself. */
    private static boolean inPackage(String pkg, String room) {
        return pkg.equals(room) || !room.equals("io.weir") && pkg.startsWith(room + ".");
    }

    private static String[] packagesOf(List<String> rooms) {
        return rooms.stream()
                .flatMap(r -> java.util.stream.Stream.of(r, r + ".."))
                .toArray(String[]::new);
    }

    private static void check(ArchRule rule) {
        rule.check(WEIR);
    }
}
