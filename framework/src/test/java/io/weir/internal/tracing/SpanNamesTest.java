package io.weir.internal.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SpanNamesTest {

    @Test
    void namesATopicOnceAndGivesTheSameNameAfterOthers() {
        SpanNames names = new SpanNames("process ");
        String first = names.of("in");

        assertThat(first).isEqualTo("process in");
        assertThat(names.of("in")).isSameAs(first);
        assertThat(names.of("other")).isEqualTo("process other");
        assertThat(names.of(new String("in")))
                .as("an equal topic, another instance")
                .isSameAs(first);
    }

    @Test
    void namesTopicsPastTheOnesItKeeps() {
        SpanNames names = new SpanNames("send ");
        for (int i = 0; i < 3_000; i++) {
            assertThat(names.of("out-" + i)).isEqualTo("send out-" + i);
        }
        assertThat(names.of("out-2999")).isEqualTo("send out-2999");
    }
}
