#include "common/large_stack.h"

#include <pthread.h>

namespace modeaudit {

namespace {

struct Call {
    int (*main)(int, char**);
    int argc;
    char** argv;
    int result;
};

extern "C" void* run_call(void* p) {
    auto* call = static_cast<Call*>(p);
    call->result = call->main(call->argc, call->argv);
    return nullptr;
}

}  // namespace

int run_on_large_stack(int (*main)(int, char**), int argc, char** argv, int failed) {
    Call call{main, argc, argv, failed};
    pthread_attr_t attr;
    pthread_t thread;
    if (pthread_attr_init(&attr) == 0) {
        const bool ok = pthread_attr_setstacksize(&attr, kLargeStack) == 0 &&
                        pthread_create(&thread, &attr, run_call, &call) == 0;
        pthread_attr_destroy(&attr);
        if (ok && pthread_join(thread, nullptr) == 0) return call.result;
        if (ok) return failed;
    }
    return main(argc, argv);  // no thread: the calling thread's stack
}

}  // namespace modeaudit
