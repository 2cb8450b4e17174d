package io.weir.testkit;

import java.util.concurrent.CountDownLatch;

/**
 * A tiny program for {@link ChildJvmIT}: {@code ready} prints its settings and "ready" and
 * waits forever, printing "shutdown hook ran" on SIGTERM; {@code exit <code>} prints and exits.
 */
final class ChildMain {

    private ChildMain() {}

    public static void main(String[] args) throws InterruptedException {
        switch (args[0]) {
            case "exit":
                System.out.println("exiting with " + args[1]);
                System.exit(Integer.parseInt(args[1]));
                break;
            case "ready":
                Runtime.getRuntime().addShutdownHook(new Thread(() -> System.out.println("shutdown hook ran")));
                System.out.println("property=" + System.getProperty("weir.test.property"));
                System.out.println("env=" + System.getenv("WEIR_TEST_ENV"));
                System.err.println("to stderr");
                System.out.println("ready");
                new CountDownLatch(1).await();
                break;
            default:
                throw new IllegalArgumentException(args[0]);
        }
    }
}
