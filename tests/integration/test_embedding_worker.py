import json

import pytest

from knowledge.models import Chunk, ChunkEmbedding
from knowledge.services import corpus_ingest
from tests.knowledge.conftest import SMALL_CORPUS

from .conftest import wait_for

pytestmark = pytest.mark.integration


def test_embedding_runs_in_a_real_worker_through_redis(tmp_path, celery_worker_process, redis_broker):
    path = tmp_path / "small.json"
    path.write_text(json.dumps(SMALL_CORPUS))
    summary = corpus_ingest(paths=[path])  # commits: the worker reads the chunks from the database
    assert summary.added == 5 and summary.to_embed == 5
    done = wait_for(lambda: celery_worker_process.poll() is not None
                    or ChunkEmbedding.objects.count() == Chunk.objects.count() == 5)
    assert done, "the worker did not embed the chunks"
    assert celery_worker_process.poll() is None  # the worker, not this process, did the work
    assert set(ChunkEmbedding.objects.values_list("model", flat=True)) == {"all-MiniLM-L6-v2"}

    again = corpus_ingest(paths=[path])
    assert again.to_embed == 0
    assert redis_broker.llen("celery") == 0
