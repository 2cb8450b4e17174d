package io.weir.rules;

import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * Rules {@link Rule#R2}, {@link Rule#R3} and {@link Rule#R4} over bytecode: calls (and method or
 * constructor references) that only one class may make. Targets are matched by name, so the rules
 * need none of the libraries they name on the class path. Nested classes and lambdas count as
 * their top-level class: a {@code KafkaClients.Reader} may create a consumer.
 */
final class ForbiddenCalls {

    /** A call only the classes {@code allowed} accepts (by top-level class name) may make. */
    record Call(Rule rule, Predicate<JavaAccess<?>> matches, Predicate<String> allowed) {}

    private static final String CONSTRUCTOR = "<init>";

    static final List<Call> CALLS = List.of(
            new Call(
                    Rule.R2,
                    a -> a.getName().equals("sleep")
                            && Set.of("java.lang.Thread", "java.util.concurrent.TimeUnit")
                                    .contains(owner(a)),
                    Set.of("io.weir.common.internal.Worker", "io.weir.common.internal.Poll")::contains),
            new Call(
                    Rule.R3, ForbiddenCalls::makesMapper, top -> simpleName(top).equals("Json")),
            new Call(
                    Rule.R4,
                    ForbiddenCalls::makesKafkaClient,
                    top -> simpleName(top).equals("KafkaClients")));

    private ForbiddenCalls() {}

    static List<Violation> find(JavaClasses classes) {
        List<Violation> found = new ArrayList<>();
        for (JavaClass c : classes) {
            for (JavaAccess<?> access : c.getAccessesFromSelf()) {
                for (Call call : CALLS) {
                    if (call.matches().test(access) && !call.allowed().test(topLevel(c))) {
                        found.add(new Violation(
                                call.rule(),
                                c.getName(),
                                access.getSourceCodeLocation().getSourceFileName(),
                                access.getLineNumber(),
                                describe(access) + " in " + access.getOrigin().getName()));
                    }
                }
            }
        }
        found.addAll(onePerModule(classes, "Json", Rule.R3));
        found.addAll(onePerModule(classes, "KafkaClients", Rule.R4));
        return found;
    }

    /**
     * A {@code new} of a Jackson mapper ({@code ObjectMapper}, {@code JsonMapper}, {@code YAMLMapper},
     * ...) or a call of its builder.
     */
    private static boolean makesMapper(JavaAccess<?> a) {
        return owner(a).startsWith("com.fasterxml.jackson.")
                && simpleName(owner(a)).endsWith("Mapper")
                && (a.getName().equals(CONSTRUCTOR) || a.getName().equals("builder"));
    }

    private static boolean makesKafkaClient(JavaAccess<?> a) {
        return switch (owner(a)) {
            case "org.apache.kafka.clients.consumer.KafkaConsumer", "org.apache.kafka.clients.producer.KafkaProducer" ->
                a.getName().equals(CONSTRUCTOR);
            case "org.apache.kafka.clients.admin.Admin", "org.apache.kafka.clients.admin.AdminClient" ->
                a.getName().equals("create");
            default -> false;
        };
    }

    /** The factory classes' name is for one class per module: a second one is a second factory. */
    private static List<Violation> onePerModule(JavaClasses classes, String simpleName, Rule rule) {
        Set<String> named = new TreeSet<>();
        for (JavaClass c : classes) {
            if (c.isTopLevelClass() && c.getSimpleName().equals(simpleName)) {
                named.add(c.getName());
            }
        }
        if (named.size() < 2) {
            return List.of();
        }
        return List.of(
                Violation.ofModule(rule, named.size() + " classes named " + simpleName + ", one is allowed: " + named));
    }

    private static String describe(JavaAccess<?> a) {
        String type = simpleName(owner(a));
        return a.getName().equals(CONSTRUCTOR) ? "new " + type : type + "." + a.getName();
    }

    private static String owner(JavaAccess<?> a) {
        return a.getTargetOwner().getName();
    }

    /** By name: an enclosing class left out of the import would be only a stub. */
    private static String topLevel(JavaClass c) {
        int nested = c.getName().indexOf('$');
        return nested < 0 ? c.getName() : c.getName().substring(0, nested);
    }

    private static String simpleName(String className) {
        String name = className.substring(className.lastIndexOf('.') + 1);
        return name.substring(name.lastIndexOf('$') + 1);
    }
}
