// What the page talks to: the results store (model/results_store.h) and the worker client that
// fills it (worker/worker_client.h), made together over one catalogue. Nothing more: each half
// is a class of its own, and the model's functions take the store alone.
#pragma once

#include <memory>
#include <utility>
#include <vector>

#include "model/results_store.h"
#include "recordings.h"
#include "registry.h"
#include "result.h"
#include "worker/worker_client.h"

namespace lessons::app {

class Controller : public ResultsStore, public WorkerClient {
public:
    // The store holds `recorded`; the client adds what the worker sends to it.
    Controller(const Registry& registry, WorkerFactory factory, std::vector<RunResult> recorded)
        : ResultsStore(registry, std::move(recorded)),
          WorkerClient(registry, *this, std::move(factory)) {}
};

// Recorded results for machines without a GPU: lessons::LoadRecordedResults (recordings.h).
using lessons::LoadRecordedResults;

}  // namespace lessons::app
