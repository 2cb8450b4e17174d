package io.weir.internal.thread;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class GroupRejoinsTest {

    @Test
    void aThreadJoinsEachRequestOnceUnlessItsOwnJoinCameAfterIt() {
        GroupRejoins rejoins = new GroupRejoins();
        GroupRejoins.Seen thread = rejoins.newThread();
        assertThat(rejoins.pending(thread)).as("nothing requested").isNull();

        thread.joining(); // its first join, before any request
        rejoins.requested("instance b started a rebalance");
        assertThat(rejoins.pending(thread)).isEqualTo("instance b started a rebalance");
        assertThat(rejoins.pending(thread)).as("acted on once").isNull();

        rejoins.requested("instance c started a rebalance");
        thread.joining(); // the heartbeat told it first: it is in that rebalance already
        assertThat(rejoins.pending(thread))
                .as("a request older than the thread's last join")
                .isNull();
    }

    @Test
    void aThreadThatNeverJoinedIsJoiningAnyway() {
        GroupRejoins rejoins = new GroupRejoins();
        GroupRejoins.Seen thread = rejoins.newThread();
        rejoins.requested("instance b started a rebalance");
        assertThat(rejoins.pending(thread)).isNull();
        thread.joining();
        assertThat(rejoins.pending(thread)).isNull();
    }

    @Test
    void eachThreadHearsEveryRequestAndAnnouncementsGoWhereTheyAreBound() {
        GroupRejoins rejoins = new GroupRejoins();
        GroupRejoins.Seen one = rejoins.newThread();
        GroupRejoins.Seen two = rejoins.newThread();
        one.joining();
        two.joining();
        rejoins.requested("instance b started a rebalance");
        assertThat(rejoins.pending(one)).isNotNull();
        assertThat(rejoins.pending(two)).isNotNull();

        List<String> sent = new ArrayList<>();
        rejoins.announce("before binding: nowhere");
        rejoins.announceThrough(sent::add);
        rejoins.announce("warm-ups caught up");
        assertThat(sent).containsExactly("warm-ups caught up");
    }
}
