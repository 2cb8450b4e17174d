package io.weir.rules;

/**
 * The four code rules, each with the reason it exists and what to write instead: the lines a
 * failing {@code CodeRulesTest} prints above its violations.
 */
enum Rule {
    R1(
            "deadline arithmetic on the monotonic clock (System.nanoTime() + x)",
            "nanoTime values may only be compared by subtraction, and every hand-written deadline loop got"
                    + " its end and its check slightly different",
            "Deadline.after(timeout) with expired() and remaining() (io.weir.common.internal.Deadline), or Poll"
                    + " for a try-and-pause wait; measuring elapsed time (nanoTime() - start) is fine"),
    R2(
            "Thread.sleep in main code outside Worker and Poll",
            "a loop that sleeps neither stops promptly when asked nor reports that it died, and a sleep hides"
                    + " the condition it waits for",
            "a background loop becomes an io.weir.common.internal.Worker (Worker.every, Worker.loop, pause);"
                    + " a wait for a condition uses io.weir.common.internal.Poll"),
    R3(
            "a Jackson mapper created outside the module's class named Json",
            "mappers configured one by one drift apart (features, modules, naming), and each costs its"
                    + " caches again",
            "use the module's Json class (the framework's io.weir.internal.json.Json), or make the one class"
                    + " named Json that holds the module's mapper"),
    R4(
            "a Kafka client created outside the module's class named KafkaClients",
            "client settings (security, client ids, timeouts) and client metrics must be applied in one"
                    + " place, not at every new KafkaConsumer",
            "create it through the module's KafkaClients factory (one class of that name per module)");

    private final String title;
    private final String why;
    private final String fix;

    Rule(String title, String why, String fix) {
        this.title = title;
        this.why = why;
        this.fix = fix;
    }

    String title() {
        return title;
    }

    String why() {
        return why;
    }

    String fix() {
        return fix;
    }
}
