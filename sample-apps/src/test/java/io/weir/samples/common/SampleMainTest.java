package io.weir.samples.common;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SampleMainTest {

    @Test
    void argumentsWinOverTheVariable() {
        assertThat(SampleMain.argsOrEnvironment(new String[] {"word-count", "--follow"}, "serve word-count"))
                .containsExactly("word-count", "--follow");
    }

    @Test
    void withoutArgumentsTheVariableNamesTheSampleAndItsOptions() {
        assertThat(SampleMain.argsOrEnvironment(new String[0], " serve  word-count\t--input-topic text "))
                .containsExactly("serve", "word-count", "--input-topic", "text");
    }

    @Test
    void withNeitherThereAreNoArguments() {
        assertThat(SampleMain.argsOrEnvironment(new String[0], null)).isEmpty();
        assertThat(SampleMain.argsOrEnvironment(new String[0], "  ")).isEmpty();
    }
}
