package io.weir.samples.pricing;

import io.weir.samples.common.CommittedTail;
import io.weir.samples.common.RunningApp;
import io.weir.samples.common.SampleConfigs;
import io.weir.samples.common.SampleKafka;
import io.weir.samples.common.SampleMain;
import io.weir.samples.common.SampleOptions;
import io.weir.samples.common.ShutdownSignal;
import io.weir.samples.common.TailRecord;
import io.weir.serde.Serdes;
import io.weir.testkit.LookupService;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Runs {@link OrderPricing} end to end with one command: starts an in-process Kafka broker (or
 * uses {@code --bootstrap-servers}) and a pricing service on 127.0.0.1 (the testkit's {@link
 * LookupService}: a real HTTP server answering after {@code --latency-ms} ± {@code --jitter-ms},
 * failing {@code --failure-rate} of calls with 503), feeds deterministic orders ({@link
 * SampleOrders}), reads each customer's spend back with {@code read_committed}, and the dead
 * letters. Exits 0 when every order is either in its customer's total or dead-lettered, never
 * both and never twice, and every customer's last total is exactly the sum of its priced orders
 * at the prices the service gives ({@link LookupService#answer}); 1 otherwise.
 *
 * <p>Totals and the summary go to stdout; progress and library logs go to stderr.
 */
@Command(
        name = "order-pricing",
        mixinStandardHelpOptions = true,
        version = "Weir sample 0.1.0",
        sortOptions = false,
        usageHelpAutoWidth = true,
        description = "Prices orders through a slow, flaky HTTP service with many calls in flight (mapValuesAsync:"
                + " retries, time-outs, dead letters), then totals them per customer, exactly once.")
public final class OrderPricingApp implements Callable<Integer> {

    private static final Logger log = LoggerFactory.getLogger(OrderPricingApp.class);
    private static final Duration POLL = Duration.ofMillis(100);

    @Mixin
    SampleOptions options;

    @Option(names = "--orders", defaultValue = "5000", description = "Orders to feed (default: ${DEFAULT-VALUE}).")
    int orderCount;

    @Option(
            names = "--customers",
            defaultValue = "20",
            description = "Customers, 1 to 100 (default: ${DEFAULT-VALUE}).")
    int customers;

    @Option(names = "--products", defaultValue = "200", description = "Products (default: ${DEFAULT-VALUE}).")
    int products;

    @Option(names = "--seed", defaultValue = "42", description = "Seed of the orders (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(
            names = "--latency-ms",
            defaultValue = "20",
            description = "The pricing service's latency (default: ${DEFAULT-VALUE}).")
    long latencyMs;

    @Option(
            names = "--jitter-ms",
            defaultValue = "5",
            description = "Its jitter, at most the latency (default: ${DEFAULT-VALUE}).")
    long jitterMs;

    @Option(
            names = "--failure-rate",
            defaultValue = "0.01",
            description = "Share of its answers that are 503, 0 to 1 (default: ${DEFAULT-VALUE}).")
    double failureRate;

    @Option(
            names = "--max-in-flight",
            defaultValue = "" + OrderPricing.DEFAULT_MAX_IN_FLIGHT,
            description = "Calls in flight at once per task (default: ${DEFAULT-VALUE}).")
    int maxInFlight;

    @Option(
            names = "--attempts",
            defaultValue = "" + OrderPricing.DEFAULT_ATTEMPTS,
            description = "Attempts per order for a 503 or a time-out, then the dead letters (default:"
                    + " ${DEFAULT-VALUE}).")
    int attempts;

    @Option(
            names = "--call-timeout-ms",
            defaultValue = "2000",
            description = "Time-out of one attempt (default: ${DEFAULT-VALUE}).")
    long callTimeoutMs;

    @Option(
            names = "--input-topic",
            defaultValue = OrderPricing.INPUT_TOPIC,
            description = "Topic of orders, keyed by order id (default: ${DEFAULT-VALUE}).")
    String inputTopic;

    @Option(
            names = "--output-topic",
            defaultValue = OrderPricing.OUTPUT_TOPIC,
            description = "Topic of each customer's spend (default: ${DEFAULT-VALUE}).")
    String outputTopic;

    public static void main(String[] args) {
        SampleMain.exit(new OrderPricingApp(), args);
    }

    @Override
    public Integer call() {
        if (orderCount < 1
                || customers < 1
                || customers > 100
                || products < 1
                || latencyMs < 0
                || jitterMs < 0
                || jitterMs > latencyMs
                || failureRate < 0
                || failureRate > 1
                || maxInFlight < 1
                || attempts < 1
                || callTimeoutMs < 1
                || options.partitions < 1) {
            throw new CommandLine.ParameterException(
                    new CommandLine(this),
                    "--orders, --products, --max-in-flight, --attempts, --call-timeout-ms and --partitions must be"
                            + " at least 1, --customers between 1 and 100, --jitter-ms between 0 and --latency-ms,"
                            + " --failure-rate between 0 and 1");
        }
        return options.run(this::run);
    }

    private int run(SampleKafka kafka, ShutdownSignal signal) {
        kafka.ensureTopics(List.of(inputTopic, outputTopic), options.partitions);
        kafka.requireFresh(List.of(inputTopic, outputTopic), options.applicationId());
        List<Order> orders = SampleOrders.generate(seed, orderCount, customers, products);
        System.out.println("INPUT "
                + orders.stream()
                        .limit(3)
                        .map(o -> o.id() + ": " + o.customer() + " " + o.quantity() + " x " + o.product())
                        .collect(Collectors.joining(", "))
                + ", ... (" + orders.size() + " orders of " + customers + " customers)");
        String bootstrap = kafka.bootstrapServers();
        Ledger ledger = new Ledger(orders);
        try (LookupService pricing =
                        LookupService.start(Duration.ofMillis(latencyMs), Duration.ofMillis(jitterMs), failureRate);
                CommittedTail<String, Spend> totals = CommittedTail.fromBeginning(
                        bootstrap, outputTopic, Serdes.strings(), Serdes.json(Spend.class));
                RunningApp app = RunningApp.start(
                        OrderPricing.topology(
                                inputTopic,
                                outputTopic,
                                pricing.uri(),
                                OrderPricing.step(maxInFlight, Duration.ofMillis(callTimeoutMs), attempts)),
                        dir -> SampleConfigs.exactlyOnce(options.applicationId(), bootstrap, dir)
                                .build(),
                        options.stateDir,
                        "weir-order-pricing-");
                CommittedTail<String, byte[]> deadLetters = CommittedTail.fromBeginning(
                        bootstrap, app.app().config().deadLetterTopic(), Serdes.strings(), Serdes.bytes())) {
            log.info(
                    "Pricing service on {} ({} ms ± {} ms, {}% 503s); feeding {} orders to '{}'",
                    pricing.uri(), latencyMs, jitterMs, failureRate * 100, orders.size(), inputTopic);
            feed(kafka, orders);
            Runnable pollOnce = () -> {
                ledger.totals(totals.poll(POLL));
                ledger.deadLetters(deadLetters.poll(Duration.ZERO));
            };
            app.await(
                    ledger::allAccounted,
                    pollOnce,
                    options.timeout(),
                    signal,
                    () -> ledger.unaccounted() + " orders neither in a total nor dead-lettered");
            Optional<Throwable> failure = app.stop();
            ledger.totals(totals.drainToEnd(RunningApp.SHUTDOWN_TIMEOUT));
            ledger.deadLetters(deadLetters.drainToEnd(RunningApp.SHUTDOWN_TIMEOUT));

            List<String> problems = ledger.check();
            ledger.print();
            problems.stream().limit(20).forEach(p -> System.out.println("PROBLEM " + p));
            System.out.println("SUMMARY order-pricing: " + orders.size() + " orders in, " + ledger.priced()
                    + " priced, " + ledger.deadLettered().size() + " dead-lettered; " + ledger.customers()
                    + " customers' totals " + (problems.isEmpty() ? "exact" : "WRONG") + "; pricing service: "
                    + pricing.calls() + " calls, " + pricing.failures() + " answered 503, " + pricing.repeats()
                    + " with an idempotency key seen before: " + (problems.isEmpty() ? "PASSED" : "FAILED"));
            failure.ifPresent(e -> System.out.println("The application failed: " + e));
            return failure.isEmpty() && problems.isEmpty() ? 0 : 1;
        }
    }

    private void feed(SampleKafka kafka, List<Order> orders) {
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>(orders.size());
        for (Order o : orders) {
            records.add(new ProducerRecord<>(
                    inputTopic,
                    Serdes.strings().serialize(inputTopic, o.id()),
                    Serdes.json(Order.class).serialize(inputTopic, o)));
        }
        kafka.client().send(records);
    }

    /**
     * What came back: each customer's spend as emitted, and the orders dead-lettered (keyed by
     * order id, as the input). Judged against the orders fed and the service's prices.
     */
    private static final class Ledger {
        private final List<Order> orders;
        private final Set<String> ids = new TreeSet<>();
        private final Map<String, Spend> latest = new TreeMap<>();
        private final Set<String> dead = new TreeSet<>();
        private final Map<String, String> deadReasons = new TreeMap<>();
        private final List<String> problems = new ArrayList<>();

        Ledger(List<Order> orders) {
            this.orders = orders;
            orders.forEach(o -> ids.add(o.id()));
        }

        void totals(List<TailRecord<String, Spend>> records) {
            for (TailRecord<String, Spend> r : records) {
                Spend before = latest.put(r.key(), r.value());
                // Each emitted total follows the one before it: a repeated or older total is output repeated.
                if (before != null && r.value().orders() <= before.orders()) {
                    problems.add(r.key() + ": total " + r.value() + " after " + before + " (partition " + r.partition()
                            + " offset " + r.offset() + ")");
                }
            }
        }

        void deadLetters(List<TailRecord<String, byte[]>> records) {
            for (TailRecord<String, byte[]> r : records) {
                if (!ids.contains(r.key())) {
                    problems.add("a dead letter that is no order of this run: " + r.key());
                } else if (!dead.add(r.key())) {
                    problems.add(r.key() + ": dead-lettered twice");
                }
                deadReasons.put(r.key(), r.header("weir.error.message"));
            }
        }

        long priced() {
            return latest.values().stream().mapToLong(Spend::orders).sum();
        }

        Set<String> deadLettered() {
            return dead;
        }

        int customers() {
            return latest.size();
        }

        /** Every order fed is in a total or a dead letter (or more are: counted twice). */
        boolean allAccounted() {
            return unaccounted() <= 0;
        }

        long unaccounted() {
            return orders.size() - priced() - dead.size();
        }

        /** The problems seen while reading, and every customer's last total against the model. */
        List<String> check() {
            List<String> all = new ArrayList<>(problems);
            Map<String, Spend> expected = SampleOrders.expected(orders, dead);
            expected.forEach((customer, spend) -> {
                if (!spend.equals(latest.get(customer))) {
                    all.add(customer + ": total " + latest.get(customer) + ", expected " + spend);
                }
            });
            latest.keySet().stream()
                    .filter(c -> !expected.containsKey(c))
                    .forEach(c -> all.add(c + ": a total " + latest.get(c) + " for a customer without priced orders"));
            if (priced() + dead.size() != orders.size()) {
                all.add(priced() + " orders priced and " + dead.size() + " dead-lettered of " + orders.size() + " fed");
            }
            return all;
        }

        void print() {
            Map<String, Spend> expected = SampleOrders.expected(orders, dead);
            latest.forEach((customer, spend) -> System.out.printf(
                    "TOTAL %s %28s%s%n",
                    customer,
                    spend,
                    spend.equals(expected.get(customer)) ? "" : "   expected " + expected.get(customer)));
            deadReasons.entrySet().stream()
                    .limit(10)
                    .forEach(e -> System.out.println("DEAD-LETTERED " + e.getKey() + ": " + e.getValue()));
        }
    }
}
