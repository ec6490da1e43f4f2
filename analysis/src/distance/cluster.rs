//! Families of games: agglomerative clustering (average linkage) over the ludeme distance.

/// One merge of two clusters, numbered as in SciPy's linkage: the games are clusters
/// `0..n`, and merge `k` creates cluster `n + k`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Merge {
    pub first: usize,
    pub second: usize,
    /// The average distance between the games of the two clusters.
    pub distance: f64,
    pub size: usize,
}

/// The full merge history (n − 1 merges for n games) of average-linkage clustering over a
/// symmetric distance matrix given as rows. O(n³), which is instant for a few hundred games.
pub fn average_linkage(distances: &[Vec<f64>]) -> Vec<Merge> {
    let n = distances.len();
    // Active clusters: (cluster id, size); the matrix row of a cluster is its slot here.
    let mut active: Vec<(usize, usize)> = (0..n).map(|i| (i, 1)).collect();
    let mut matrix: Vec<Vec<f64>> = distances.to_vec();
    let mut merges = Vec::with_capacity(n.saturating_sub(1));
    while active.len() > 1 {
        let mut best = (f64::INFINITY, 0, 1);
        for (i, row) in matrix.iter().enumerate() {
            for (j, &d) in row.iter().enumerate().skip(i + 1) {
                if d < best.0 {
                    best = (d, i, j);
                }
            }
        }
        let (d, i, j) = best;
        let ((first, size_i), (second, size_j)) = (active[i], active[j]);
        let size = size_i + size_j;
        merges.push(Merge {
            first,
            second,
            distance: d,
            size,
        });
        // The merged cluster takes slot i (its distances are the size-weighted averages);
        // slot j is removed.
        let mut merged: Vec<f64> = matrix[i]
            .iter()
            .zip(&matrix[j])
            .map(|(to_i, to_j)| (to_i * size_i as f64 + to_j * size_j as f64) / size as f64)
            .collect();
        merged[i] = 0.0;
        for (row, &value) in matrix.iter_mut().zip(&merged) {
            row[i] = value;
        }
        matrix[i] = merged;
        active[i] = (n + merges.len() - 1, size);
        active.remove(j);
        matrix.remove(j);
        for row in &mut matrix {
            row.remove(j);
        }
    }
    merges
}

/// The families: the clusters formed by the merges at distance at most `cut`, each a list of
/// game indices in ascending order, largest family first.
pub fn families(n: usize, merges: &[Merge], cut: f64) -> Vec<Vec<usize>> {
    let mut members: Vec<Vec<usize>> = (0..n).map(|i| vec![i]).collect();
    let mut alive = vec![true; n];
    for merge in merges {
        if merge.distance > cut {
            members.push(Vec::new());
            alive.push(false);
            // Keep the clusters apart: later merges over this one are above the cut as well
            // (average linkage distances never decrease), so they are never joined.
            continue;
        }
        let mut joined = std::mem::take(&mut members[merge.first]);
        joined.append(&mut std::mem::take(&mut members[merge.second]));
        alive[merge.first] = false;
        alive[merge.second] = false;
        members.push(joined);
        alive.push(true);
    }
    let mut result: Vec<Vec<usize>> = members
        .into_iter()
        .zip(alive)
        .filter(|(family, alive)| *alive && !family.is_empty())
        .map(|(mut family, _)| {
            family.sort_unstable();
            family
        })
        .collect();
    result.sort_by(|a, b| b.len().cmp(&a.len()).then(a.cmp(b)));
    result
}

/// The games in the order a dendrogram draws them (each cluster's games side by side).
pub fn leaf_order(n: usize, merges: &[Merge]) -> Vec<usize> {
    if n == 0 {
        return Vec::new();
    }
    if merges.is_empty() {
        return (0..n).collect();
    }
    let root = n + merges.len() - 1;
    let mut order = Vec::with_capacity(n);
    let mut stack = vec![root];
    while let Some(cluster) = stack.pop() {
        if cluster < n {
            order.push(cluster);
        } else {
            let merge = merges[cluster - n];
            stack.push(merge.second);
            stack.push(merge.first);
        }
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_families() {
        let d = vec![
            vec![0.0, 0.1, 0.9, 0.8],
            vec![0.1, 0.0, 0.85, 0.9],
            vec![0.9, 0.85, 0.0, 0.05],
            vec![0.8, 0.9, 0.05, 0.0],
        ];
        let merges = average_linkage(&d);
        assert_eq!(merges.len(), 3);
        assert_eq!(families(4, &merges, 0.25), vec![vec![0, 1], vec![2, 3]]);
        let order = leaf_order(4, &merges);
        assert_eq!(order.len(), 4);
        let position = |game| order.iter().position(|&g| g == game).unwrap();
        assert_eq!(position(0).abs_diff(position(1)), 1);
    }
}
