package io.weir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.serde.Serdes;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class StartPreloadTest {

    @Test
    void theStartGetsTheLibraryLoadersOwnErrorNotAWaitForever() {
        UnsatisfiedLinkError unlinked = new UnsatisfiedLinkError("librocksdbjni-linux64.so: cannot open");
        StartPreload preload = StartPreload.begin("app", () -> { }, () -> {
            throw unlinked;
        });

        assertThatThrownBy(preload::awaitRocksDb).isSameAs(unlinked);
    }

    @Test
    void aRuntimeFailureOfTheLibraryComesBackUnwrapped() {
        IllegalStateException failed = new IllegalStateException("Unable to load the RocksDB shared library");
        StartPreload preload = StartPreload.begin("app", () -> { }, () -> {
            throw failed;
        });

        assertThatThrownBy(preload::awaitRocksDb).isSameAs(failed);
    }

    @Test
    void aFailedClassPreloadStillLoadsTheLibrary() {
        AtomicBoolean loaded = new AtomicBoolean();
        StartPreload preload = StartPreload.begin("app", () -> {
            throw new NoClassDefFoundError("org/apache/kafka/common/protocol/ApiKeys");
        }, () -> loaded.set(true));

        preload.awaitRocksDb();

        assertThat(loaded).isTrue();
    }

    @Test
    void theStartWaitsForALoadStillUnderWay() throws InterruptedException {
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean loaded = new AtomicBoolean();
        StartPreload preload = StartPreload.begin("app", () -> { }, () -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            loaded.set(true);
        });
        Thread waiter = new Thread(preload::awaitRocksDb);
        waiter.start();
        waiter.join(200);
        assertThat(waiter.isAlive()).as("waits while the library loads").isTrue();

        release.countDown();
        waiter.join(10_000);

        assertThat(waiter.isAlive()).isFalse();
        assertThat(loaded).isTrue();
    }

    @Test
    void thePreloadOfARealTopologyCompletes() {
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), "lines")
                .groupBy((k, line) -> line, Serdes.strings(), Serdes.strings())
                .count("line-counts")
                .toStream()
                .to("line-counts", Serdes.strings(), Serdes.longs());
        StartPreload preload = StartPreload.begin(b.build().model().resolve("app"), "app");

        assertThatCode(preload::awaitRocksDb).doesNotThrowAnyException();
    }
}
